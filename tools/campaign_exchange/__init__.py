"""A whole campaign as one file: export, import, and the standings as CSV (docs/campaign-export.md).

It reads and writes every app's rows (gangs, campaigns, post-battle sequences), so it lives with the site's
tools, above them all.
"""

from tools.campaign_exchange.check import campaign_import_check, parse_campaign_file
from tools.campaign_exchange.export import campaign_export, standings_csv
from tools.campaign_exchange.load import campaign_import

__all__ = ["campaign_export", "campaign_import", "campaign_import_check", "parse_campaign_file", "standings_csv"]
