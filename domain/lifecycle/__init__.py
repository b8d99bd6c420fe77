"""How a person's memory ages: decay, compression, expiry. Pure rules over what the projection says."""
