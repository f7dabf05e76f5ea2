"""``{% tokencache %}`` (core.fragments): a fragment kept with placeholders for its tokens, each request's put in."""

import re

from django.template import engines

from core.fragments import ONE_TIME_PLACEHOLDER

# A form's CSRF token and a one-time token (as battles' once_token draws it while a fragment is being kept), in a
# fragment kept inside another one (the campaign page's whole body around its sections).
NESTED = (
    "{% load fragments %}{% tokencache 60 outer %}<p>{% tokencache 60 inner %}"
    "<input name=csrf value={{ csrf_token }}><input name=once value={{ once }}>{% endtokencache %}</p>{% endtokencache %}"
)


def _tokens(html: str) -> tuple[str, str]:
    return re.search(r"name=csrf value=(\w+)>", html).group(1), re.search(r"name=once value=(\w+)>", html).group(1)


def test_a_fragment_kept_inside_another_gets_each_requests_tokens(cache_backend):
    template = engines["django"].from_string(NESTED)
    drawn = [template.render({"csrf_token": token, "once": ONE_TIME_PLACEHOLDER}) for token in ("first", "second")]
    (csrf_first, once_first), (csrf_second, once_second) = (_tokens(html) for html in drawn)
    assert (csrf_first, csrf_second) == ("first", "second")
    assert once_first != once_second and ONE_TIME_PLACEHOLDER not in once_first + once_second
