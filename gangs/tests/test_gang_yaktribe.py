"""Import from YakTribe (issue 24), against fixtures written from the format's description (docs/yaktribe-import.md):
a whole Genestealer Cult gang, odd spellings and unknown names, numbers as strings, hostile files, and the
gang fetched by its address from a local server."""

import contextlib
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from content.models import Equipment
from gangs import yaktribe
from gangs.ledger import ledger_totals
from gangs.models import Fighter, FighterStatus, Gang, LedgerEntry
from gangs.selectors import import_flags

FIXTURES = Path(__file__).parent / "yaktribe"


@pytest.fixture
def loaded_content(module_content, db):
    return module_content


def fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def by_name(view) -> dict:
    return {f.ganger.name: f for f in view.fighters}


def test_a_whole_genestealer_cult_is_placed_name_by_name(loaded_content):
    view = yaktribe.preview(yaktribe.read(yaktribe.parse_file(fixture("genestealer-cult.json"))))
    assert view.house.label == "Genestealer Cults"
    fighters = by_name(view)
    assert fighters["Magus Ilvar"].fighter_type.label == "Cult Adept"
    assert [i.label for i in fighters["Magus Ilvar"].items] == ["Autopistol", "Power sword", "Mesh armour"]
    nyx = fighters["Nyx"].items[0]
    assert (nyx.label, nyx.note) == ("Grenade launcher", "w/Frag+Krak")
    assert fighters["Tam"].items[0].label == "Shotgun"
    assert fighters["Tam"].left_out == ["Out Cold (no lasting effect to carry)"]
    assert fighters["Sister Vey"].items[1].label == "Armoured undersuit"  # "Armored undersuit"
    vestments = fighters["Sister Vey"].items[2]
    assert not vestments.placed and vestments.options  # the nearest names to choose from
    familiar = fighters["Mittens"].fighter_type
    assert not familiar.placed and familiar.given == "Psychic Familiar"
    # Sister Vey's WS 2+ is not a Hybrid Acolyte's 3+; Primus Kell's BS 4+ is explained by his Eye Injury.
    assert [(r.code, r.shown_given, r.shown_expected) for r in fighters["Sister Vey"].differences] == [
        ("WS", "2+", "3+")
    ]
    assert fighters["Primus Kell"].differences == []
    assert view.unplaced_count == 2


def test_confirming_creates_the_gang_with_the_dead_dead_and_every_difference_flagged(loaded_content, make_user):
    owner = make_user()
    gang = yaktribe.yaktribe_import(owner=owner, raw=fixture("genestealer-cult.json"), choices={}, token="t1")
    assert (gang.edition, gang.house.name, gang.name) == ("n18", "Genestealer Cults", "The Fourfold Smile")
    assert (gang.stash, gang.reputation) == (145, 7)
    fighters = {f.name: f for f in gang.fighters.all()}
    assert "Mittens" not in fighters  # no Psychic Familiar here: left out, and said so
    assert fighters["Dex"].status == FighterStatus.DEAD
    assert fighters["Tam"].status == FighterStatus.RECOVERY
    assert fighters["Primus Kell"].injuries.get().name == "Eye Injury"
    assert fighters["Magus Ilvar"].experience == 14 and fighters["The Brute"].kills == 4
    assert fighters["Magus Ilvar"].skills.get().skill.name == "Overwatch"
    vey = fighters["Sister Vey"]
    assert [(c.stat, c.delta) for c in vey.stat_changes.all()] == [("WS", -1)]
    totals = ledger_totals(gang)
    assert (totals["stash"], totals["reputation"]) == (145, 7)
    assert {k: v for k, v in totals["experience"].items() if v} == {
        f.pk: f.experience for f in fighters.values() if f.experience
    }
    entry = LedgerEntry.objects.get(gang=gang, fighter__isnull=True, data__has_key="flags")
    assert entry.reason == "Imported from YakTribe gang 48213"
    flags = import_flags(gang)
    assert "Mittens (Psychic Familiar) was left out: no Genestealer Cults fighter type matches." in flags[None]
    assert any("Sister Vey: WS 2+ where a Hybrid Acolyte" in f for f in flags[vey.pk])
    assert any("left out: Cult Vestments" in f for f in flags[vey.pk])
    # The same confirmation again (a double submit) finds the first gang.
    again = yaktribe.yaktribe_import(owner=owner, raw=fixture("genestealer-cult.json"), choices={}, token="t1")
    assert again.pk == gang.pk and Gang.objects.filter(owner=owner).count() == 1


def test_odd_spellings_numbers_as_numbers_and_a_players_choices(loaded_content, make_user):
    raw = fixture("odd-spellings.json")
    view = yaktribe.preview(yaktribe.read(yaktribe.parse_file(raw)))
    assert view.house.label == "Genestealer Cults" and (view.file.credits, view.file.reputation) == (60, 3)
    adept, neophyte = view.fighters
    assert [i.label for i in adept.items[:2]] == ["Autopistol", "Mesh armour"]
    pistol, blade = adept.items[2], adept.items[3]
    assert not pistol.placed and "Plasma pistol" in [label for _, label in pistol.choices]
    assert not blade.placed
    assert adept.skills[0].label == "Overwatch"
    assert not adept.skills[1].placed and "Nerves of Steel" in [label for _, label in adept.skills[1].choices]
    assert neophyte.fighter_type.label == "Neophyte Hybrid" and neophyte.items[0].qty == 2
    assert neophyte.items[1].label == "Photo-goggles"
    assert not neophyte.injuries[0].placed  # "Grievous Injury" is no result of the table here
    plasma = Equipment.objects.get(edition="n18", name="Plasma pistol")
    choices = {pistol.key: str(plasma.pk), adept.skills[1].key: adept.skills[1].choices[0][0]}
    gang = yaktribe.yaktribe_import(owner=make_user(), raw=raw, choices=choices, token="t")
    adept_row = gang.fighters.get(name="Magus Ilvar")
    assert sorted(p.equipment.name for p in adept_row.purchases.all()) == ["Autopistol", "Mesh armour", "Plasma pistol"]
    assert gang.fighters.get(name="Ro").purchases.count() == 3  # two autoguns and the goggles


def _gang_file(**changes) -> dict:
    data = json.loads(fixture("genestealer-cult.json"))
    data["gang"].update(changes)
    return data


HOSTILE = [
    ("too large", b'{"gang": {"gang_notes": "' + b"x" * (1024 * 1024) + b'"}}', ["larger than 1 MiB"]),
    (
        "too deep",
        json.dumps({"gang": _gang_file()["gang"] | {"stash": [[[[[[[["x"]]]]]]]]}}).encode(),
        ["nested more than 7 deep"],
    ),
    ("a NUL", json.dumps(_gang_file(gang_name="Four\x00fold")).encode(), ["a text holds a NUL character"]),
    ("a fraction", json.dumps(_gang_file(credits=1.5)).encode(), ["1.5 is not a whole number"]),
    ("not JSON", b"<html>YakTribe</html>", ["not JSON"]),
    ("no gang", b'{"gangs": []}', ['the key "gang"']),
    (
        "wrong types everywhere",
        json.dumps(
            _gang_file(
                gangers=[
                    {
                        "name": "A",
                        "type": "Cult Adept",
                        "ws": "three",
                        "xp": "lots",
                        "status": "Zombie",
                        "equipment": "Autogun",
                        "skills": [7],
                    },
                    "B",
                ],
                credits=-5,
                reputation="x",
            )
        ).encode(),
        [
            "credits: -5 is not a whole number of 0 or more",
            "reputation: 'x' is not a whole number",
            "A: ws: 'three' is not a characteristic",
            "A: xp: 'lots' is not a whole number",
            "A: status 'Zombie' is not one this site reads",
            "A: equipment: must be a list",
            "A: skills[0]: must be a name",
            "gangers[1]: must be an object",
        ],
    ),
]


@pytest.mark.parametrize(("what", "raw", "messages"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_hostile_file_is_refused_whole_naming_every_problem(client, loaded_content, make_user, what, raw, messages):
    client.force_login(make_user())
    counts = (Gang.objects.count(), Fighter.objects.count(), LedgerEntry.objects.count())
    upload = SimpleUploadedFile("gang.json", raw, content_type="application/json")
    response = client.post(reverse("gangs:gang-import-yaktribe"), {"file": upload})
    assert response.status_code == 200
    page = response.content.decode().replace("&#x27;", "'").replace("&quot;", '"')
    assert 'class="problems" role="alert"' in page, what
    for message in messages:
        assert message in page, (what, message)
    assert (Gang.objects.count(), Fighter.objects.count(), LedgerEntry.objects.count()) == counts


def test_the_pages_preview_then_create_once(client, loaded_content, make_user):
    owner = make_user()
    client.force_login(owner)
    url = reverse("gangs:gang-import-yaktribe")
    assert client.get(url).status_code == 200
    text = fixture("genestealer-cult.json").decode()
    preview = client.post(url, {"text": text})
    page = preview.content.decode()
    assert page.count('data-testid="preview-fighter"') == 9 and "Psychic Familiar" in page
    assert "Unexplained: WS 2+" in page and Gang.objects.filter(owner=owner).count() == 0
    nonce = page.split('name="nonce" value="')[1].split('"')[0]
    confirm = {"confirm": "1", "nonce": nonce, "raw": text}
    response = client.post(url, confirm)
    gang = Gang.objects.get(owner=owner)
    assert response.status_code == 302 and response["Location"] == gang.get_absolute_url()
    client.post(url, confirm)  # the same form again
    assert Gang.objects.filter(owner=owner).count() == 1
    roster = client.get(gang.get_absolute_url()).content.decode()
    assert "Imported: not explained by a recorded history" in roster and "Sister Vey: WS 2+" in roster


def test_a_stale_or_forged_choice_is_not_taken(loaded_content, make_user):
    raw = fixture("genestealer-cult.json")
    shotgun = Equipment.objects.get(edition="n18", slug="shotgun")
    gang = yaktribe.yaktribe_import(owner=make_user(), raw=raw, choices={"item-2-2": str(shotgun.pk)}, token="x")
    # "Cult Vestments"' nearest names do not include a shotgun: the choice is ignored, the item left out.
    held = [p.equipment.name for p in gang.fighters.get(name="Sister Vey").purchases.all()]
    assert held == ["Power pick", "Armoured undersuit"]


# --- fetched by its address, from a local server ---------------------------------------------------


class _YakTribe(BaseHTTPRequestHandler):
    body = b""
    delay = 0.0

    def do_GET(self):  # noqa: N802 (the standard library's name)
        if not self.path.startswith("/underhive/json/gang/48213.json"):
            self.send_error(404)
            return
        time.sleep(self.delay)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        with contextlib.suppress(BrokenPipeError):  # the site stopped reading at its limit, as it should
            self.wfile.write(self.body)

    def log_message(self, *args):
        pass


@pytest.fixture
def yaktribe_server(settings):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _YakTribe)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    settings.YAKTRIBE_URL = f"http://127.0.0.1:{server.server_address[1]}"
    yield _YakTribe
    server.shutdown()
    server.server_close()
    _YakTribe.body, _YakTribe.delay = b"", 0.0


def test_a_gang_address_is_fetched_by_the_server(client, loaded_content, make_user, yaktribe_server):
    yaktribe_server.body = fixture("genestealer-cult.json")
    assert yaktribe.gang_id_from_address("https://yaktribe.games/underhive/gang/the-fourfold-smile.48213/") == "48213"
    assert yaktribe.gang_id_from_address("http://169.254.169.254/latest/meta-data") is None
    client.force_login(make_user())
    page = client.post(reverse("gangs:gang-import-yaktribe"), {"address": "the-fourfold-smile.48213"}).content.decode()
    assert page.count('data-testid="preview-fighter"') == 9
    missing = client.post(reverse("gangs:gang-import-yaktribe"), {"address": "99"}).content.decode()
    assert "YakTribe answered 404 for gang 99" in missing


def test_a_slow_or_huge_answer_is_cut_off(loaded_content, yaktribe_server, monkeypatch):
    monkeypatch.setattr(yaktribe, "FETCH_SECONDS", 0.5)
    yaktribe_server.delay = 1.5
    yaktribe_server.body = fixture("genestealer-cult.json")
    with pytest.raises(ValidationError, match="did not answer within"):
        yaktribe.fetch("48213")
    yaktribe_server.delay = 0
    yaktribe_server.body = b"x" * (3 * 1024 * 1024)
    with pytest.raises(ValidationError, match="larger than 1 MiB"):
        yaktribe.fetch("48213")


def test_fetching_can_be_turned_off(settings, loaded_content):  # in the module's shared content load
    settings.YAKTRIBE_URL = ""
    with pytest.raises(ValidationError, match="does not fetch from YakTribe"):
        yaktribe.fetch("48213")


def _run_worker():
    """The site's worker, bounded (as notifications.tests runs it): its start-up sweep, then what is queued."""
    from unittest import mock

    from django.core.management import call_command

    with mock.patch("django_tasks_db.management.commands.db_worker.close_old_connections"):
        call_command("worker", "--batch", "--no-reload", "--no-startup-delay", "--interval", "0", verbosity=0)


def test_a_large_file_is_imported_by_the_worker_and_nothing_is_lost(
    client, loaded_content, make_user, monkeypatch, django_capture_on_commit_callbacks
):
    from gangs import background_import
    from gangs.models import FileImport, ImportState

    text = fixture("genestealer-cult.json").decode()
    assert not background_import.in_background("yaktribe", text.encode())  # a file this size is imported at once
    monkeypatch.setitem(background_import.BACKGROUND_BYTES, "yaktribe", 100)
    owner = make_user()
    client.force_login(owner)
    url = reverse("gangs:gang-import-yaktribe")
    page = client.post(url, {"text": text}).content.decode()
    nonce = page.split('name="nonce" value="')[1].split('"')[0]
    confirm = {"confirm": "1", "nonce": nonce, "raw": text}
    # The queue loses the task (a worker killed, a queue down): the row waits all the same.
    monkeypatch.setattr(background_import, "wake_importer", lambda: None)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, confirm)
        client.post(url, confirm)  # the same form again: one import
    job = FileImport.objects.get()
    status = reverse("gangs:import-status", args=[job.pk])
    assert response.status_code == 302 and response["Location"] == status
    assert 'data-testid="importing"' in client.get(status).content.decode() and not Gang.objects.exists()
    client.force_login(make_user())
    assert client.get(status).status_code == 404  # someone else's import
    monkeypatch.undo()
    _run_worker()  # the worker's start-up sweep finds the waiting import
    job.refresh_from_db()
    gang = Gang.objects.get(owner=owner)
    assert (job.state, job.gang) == (ImportState.DONE, gang) and gang.fighters.count() == 8  # no Familiar here
    client.force_login(owner)
    assert client.get(status)["Location"] == gang.get_absolute_url()
    _run_worker()  # nothing imported twice
    assert Gang.objects.filter(owner=owner).count() == 1


def test_a_large_file_the_worker_refuses_says_why(
    client, loaded_content, make_user, django_capture_on_commit_callbacks
):
    from gangs import background_import
    from gangs.models import ImportState

    owner = make_user()
    raw = fixture("genestealer-cult.json").replace(b'"Genestealer Cult"', b'"No Such Gang List"')
    with django_capture_on_commit_callbacks(execute=True):  # the import's task queued when the row is committed
        job = background_import.import_queue(kind="yaktribe", owner=owner, raw=raw, token="t" * 64)
    _run_worker()
    job.refresh_from_db()
    assert job.state == ImportState.REFUSED and "no 2018+ gang list is called" in job.problems[0]
    client.force_login(owner)
    page = client.get(reverse("gangs:import-status", args=[job.pk])).content.decode()
    assert "Nothing was imported" in page and "No Such Gang List" in page and not Gang.objects.exists()


def test_a_hostile_file_is_refused_before_it_is_queued(loaded_content, make_user):
    from gangs import background_import
    from gangs.models import FileImport

    with pytest.raises(ValidationError):
        background_import.import_queue(
            kind="yaktribe", owner=make_user(), raw=b'{"gang": [[[[[[[[1]]]]]]]]}', token="h" * 64
        )
    assert not FileImport.objects.exists()
