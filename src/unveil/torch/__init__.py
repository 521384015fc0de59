"""Everything in unveil that knows about torch. Imports torch lazily."""
