"""Site-wide pieces: home page, accounts, health check, htmx messages and the demo command."""
