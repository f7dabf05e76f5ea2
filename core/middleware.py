"""Show Django messages after htmx requests too.

A full page renders its messages in ``base.html``. An htmx request swaps only a fragment, so
messages queued during it would wait for the next full page; this appends them as an
out-of-band swap of the ``#messages`` region instead.
"""

from django.contrib.messages import get_messages
from django.template.loader import render_to_string


class HtmxMessagesMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if not getattr(request, "htmx", False) or request.htmx.boosted:
            return response
        if response.status_code in (301, 302, 303, 307, 308) or "HX-Redirect" in response.headers:
            return response
        if not response.get("Content-Type", "").startswith("text/html") or response.streaming:
            return response
        messages = list(get_messages(request))
        if messages:
            html = render_to_string("core/_messages.html", {"messages": messages, "oob": True}, request=request)
            response.content += html.encode(response.charset)
        return response
