from infra.rewriting.port import QueryRewriter, open_rewriter

__all__ = ["QueryRewriter", "open_rewriter"]
