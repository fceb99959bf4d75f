"""English at /, French and German under /fr/ and /de/: each page in the language of its URL, with
hreflang alternates, a language menu, and one redirect from / for a first visit that asks for
French or German."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

pytestmark = pytest.mark.django_db

LOCALE = Path(settings.BASE_DIR) / "locale"
PAGES = ["/", "/rules/", "/stats/", "/daily/", "/deal/5/", "/embed-this/", "/no-such-page/"]


def html_lang(page: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', page)
    assert found is not None
    return found[1]


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("code", ["fr", "de"])
def test_a_page_under_a_language_prefix_is_in_that_language(
    client: Client, path: str, code: str
) -> None:
    response = client.get(f"/{code}{path}")

    assert response.status_code == (404 if "no-such" in path else 200)
    assert html_lang(response.content.decode()) == code
    assert response["Content-Language"] == code


@pytest.mark.parametrize("path", PAGES)
def test_english_pages_keep_their_urls(client: Client, path: str) -> None:
    response = client.get(path)

    assert response.status_code == (404 if "no-such" in path else 200)
    assert html_lang(response.content.decode()) == "en"


def test_french_pages_link_to_french_pages(client: Client) -> None:
    page = client.get("/fr/rules/").content.decode()

    assert '<a class="site-name" href="/fr/">' in page
    assert 'href="/fr/daily/"' in page
    assert "Règles du jeu · La Belle Lucie" in page


@pytest.mark.parametrize("path", ["/rules/", "/fr/rules/", "/de/deal/12/", "/daily/2026/11/"])
def test_every_page_names_its_alternates_in_each_language(client: Client, path: str) -> None:
    page = client.get(path).content.decode()
    english = re.sub(r"^/(fr|de)/", "/", path)

    links = dict(re.findall(r'<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">', page))

    assert links == {
        "en": f"http://testserver{english}",
        "fr": f"http://testserver/fr{english}",
        "de": f"http://testserver/de{english}",
        "x-default": f"http://testserver{english}",
    }


def test_the_footer_offers_each_language_named_in_itself(client: Client) -> None:
    page = client.get("/de/rules/").content.decode()

    assert re.search(
        r'<button type="submit" name="language" value="fr" lang="fr">Français</button>', page
    )
    assert re.search(r'value="de" lang="de" aria-current="true" disabled>Deutsch</button>', page)
    assert '<input type="hidden" name="next" value="/de/rules/">' in page


def test_choosing_a_language_shows_the_same_page_in_it_and_remembers(client: Client) -> None:
    response = client.post("/language/", {"language": "en", "next": "/fr/rules/?x=1"})

    assert response.status_code == 302
    assert response["Location"] == "/rules/?x=1"
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "en"

    response = client.post("/language/", {"language": "de", "next": "/rules/"})
    assert response["Location"] == "/de/rules/"


def test_choosing_a_language_goes_nowhere_outside_the_site(client: Client) -> None:
    response = client.post("/language/", {"language": "fr", "next": "https://evil.example/"})

    assert response["Location"] == "/fr/"


def test_choosing_a_language_the_site_does_not_speak_changes_nothing(client: Client) -> None:
    response = client.post("/language/", {"language": "es", "next": "/rules/"})

    assert response["Location"] == "/rules/"
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


@pytest.mark.parametrize(
    ("header", "target"), [("fr-FR,fr;q=0.9,en;q=0.5", "/fr/"), ("de", "/de/")]
)
def test_a_first_visit_asking_for_french_or_german_goes_there_once(
    client: Client, header: str, target: str
) -> None:
    first = client.get("/", headers={"Accept-Language": header})

    assert first.status_code == 302
    assert first["Location"] == target
    assert "Accept-Language" in first["Vary"]
    assert client.get(target).status_code == 200
    # Remembered: the same browser back on / is not sent away again.
    again = client.get("/", headers={"Accept-Language": header})
    assert again.status_code == 200
    assert html_lang(again.content.decode()) == "en"


def test_a_visitor_who_chose_english_is_never_redirected(client: Client) -> None:
    client.post("/language/", {"language": "en", "next": "/"})

    response = client.get("/", headers={"Accept-Language": "fr"})

    assert response.status_code == 200


def test_a_client_with_no_accept_language_is_never_redirected_nor_given_a_cookie(
    client: Client,
) -> None:
    response = client.get("/")

    assert response.status_code == 200
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


@pytest.mark.parametrize("header", ["en-GB,en;q=0.9", "es,it;q=0.8", "*"])
def test_a_browser_asking_for_english_or_another_language_stays_on_english(
    client: Client, header: str
) -> None:
    response = client.get("/", headers={"Accept-Language": header})

    assert response.status_code == 200
    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


def test_only_the_home_page_redirects(client: Client) -> None:
    assert client.get("/rules/", headers={"Accept-Language": "fr"}).status_code == 200
    assert client.get("/deal/5/", headers={"Accept-Language": "fr"}).status_code == 200


def test_the_embed_speaks_the_language_of_its_url_and_sets_no_cookie() -> None:
    response = Client().get("/fr/embed/", headers={"Accept-Language": "de"})

    assert response.status_code == 200
    assert response["Content-Language"] == "fr"
    assert not response.cookies
    assert "X-Frame-Options" not in response


def test_a_refusal_in_a_french_embed_gets_the_embed_page(client: Client) -> None:
    from django.test import RequestFactory

    from game.ops import limits
    from game.ops.refusal_pages import refused_page

    request = RequestFactory().get("/fr/embed/deal/5/")
    response = refused_page(request, limits.Busy())

    assert b'class="embed"' in response.content


@pytest.mark.parametrize("code", ["fr", "de"])
def test_the_compiled_catalogue_matches_its_source(code: str, tmp_path: Path) -> None:
    # The .mo files are committed (so a checkout and the image need no gettext); this keeps them
    # from falling behind their .po sources.
    msgfmt = shutil.which("msgfmt")
    if msgfmt is None:
        message = "needs GNU gettext's msgfmt (apt-get install gettext)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    folder = LOCALE / code / "LC_MESSAGES"
    compiled = tmp_path / "django.mo"

    subprocess.run(
        [msgfmt, "--check-format", "-o", str(compiled), str(folder / "django.po")], check=True
    )

    assert compiled.read_bytes() == (folder / "django.mo").read_bytes(), (
        f"run: manage.py compilemessages -l {code}"
    )


def test_the_docstring_examples_hold() -> None:
    import doctest

    from lucie import languages

    results = doctest.testmod(languages)

    assert results.attempted >= 3
    assert results.failed == 0
