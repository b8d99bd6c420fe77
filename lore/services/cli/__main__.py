from lore.services.cli import main

main()
