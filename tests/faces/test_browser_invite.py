"""The invite in Chromium: with ``serve --public-url`` the table page shows and copies the public
link, its QR code says exactly that link, and the seat link starts with it too; on a phone the
QR code starts folded."""

from __future__ import annotations

import re
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from webtest import (
    ARTIFACTS,
    CHROMIUM,
    Watch,
    chromium,
    create_table,
    free_port,
    needs_browser,
    qr_matrices,
    qr_matrix,
    serve,
    sit,
)

pytestmark = needs_browser


@pytest.fixture(scope="module")
def public(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server whose public URL is ``http://example.test:PORT`` on its own port: its local
    base URL and its public URL."""
    port = free_port()
    url = f"http://example.test:{port}"
    with serve(tmp_path_factory.mktemp("invite"), "--public-url", url, port=port) as base:
        yield base, url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as browser:
        yield browser


def shows(page: Any, link: str) -> None:
    """Wait until the invite box shows ``link``."""
    page.wait_for_function(
        "(l) => document.querySelector('[data-testid=invite-link]').value === l", arg=link
    )


def _svg(url: str) -> str:
    with urllib.request.urlopen(url, timeout=5) as response:
        assert response.headers["Content-Type"].startswith("image/svg+xml")
        text: str = response.read().decode()
        return text


def test_the_invite_box_shows_copies_and_draws_the_public_link(
    public: tuple[str, str], browser: Any
) -> None:
    base, url = public
    watch = Watch(browser)
    page = watch.page
    watch.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    address = create_table(page, base, "Porch")
    # the creator stays on the address they opened: their seat is kept there
    assert address.startswith(base + "/t/")
    table = address.rsplit("/", 1)[1]
    link = f"{url}/t/{table}"
    shows(page, link)
    qr = page.wait_for_selector("[data-testid=invite-qr][data-link]")
    assert qr.get_attribute("data-link") == link
    assert page.is_visible("[data-testid=invite-qr]")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=invite-qr]').naturalWidth > 0"
    )
    # the image is the server's QR code of exactly that link
    source = page.eval_on_selector("[data-testid=invite-qr]", "img => img.src")
    assert source == f"{base}/api/tables/{table}/invite.svg"
    assert qr_matrix(_svg(source)) in qr_matrices(link)
    page.click("[data-testid=copy-invite]")
    page.wait_for_function("(l) => navigator.clipboard.readText().then(t => t === l)", arg=link)
    page.screenshot(path=str(ARTIFACTS / "invite.png"), full_page=True)

    # the seat link, for another device, is on the public URL too; a re-render keeps the box
    sit(page, 0, "Ann")
    seat_link = page.wait_for_selector(
        "[aria-label='your seat link']", state="attached"
    ).get_attribute("value")
    assert re.fullmatch(rf"{re.escape(link)}#token=[\w-]+", seat_link or "")
    assert page.get_attribute("[data-testid=invite-link]", "value") == link
    assert page.get_attribute("[data-testid=invite-qr]", "data-link") == link
    watch.close()


def test_on_a_phone_the_qr_code_starts_folded(public: tuple[str, str], browser: Any) -> None:
    base, url = public
    watch = Watch(browser, width=390, height=844)
    page = watch.page
    address = create_table(page, base, "Phone")
    link = f"{url}/t/{address.rsplit('/', 1)[1]}"
    shows(page, link)
    assert page.get_attribute("[data-testid=invite-qr-box]", "open") is None
    assert not page.is_visible("[data-testid=invite-qr]")
    page.click("[data-testid=invite-qr-box] summary")
    page.wait_for_selector("[data-testid=invite-qr]", state="visible")
    assert page.get_attribute("[data-testid=invite-qr]", "data-link") == link
    # the fold the player chose survives the next state (someone sits down)
    sit(page, 0, "Bo")
    assert page.get_attribute("[data-testid=invite-qr-box]", "open") is not None
    watch.close()


def test_a_friend_opening_the_public_link_joins_the_table(
    public: tuple[str, str], browser: Any
) -> None:
    """The link as a friend's browser follows it: example.test resolves to this machine, as a
    tunnel's name would to the tunnel, and the page on that address speaks to the table."""
    base, url = public
    friend = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=["--no-sandbox", "--host-resolver-rules=MAP example.test 127.0.0.1"],
    )
    try:
        host = Watch(friend)
        address = create_table(host.page, base, "Tunnel")
        link = f"{url}/t/{address.rsplit('/', 1)[1]}"
        guest = Watch(friend)
        guest.page.goto(link)
        guest.page.wait_for_selector("[data-testid=pregame]")
        sit(guest.page, 1, "Cy")
        host.page.wait_for_function(
            "() => document.querySelector('[data-testid=seat-1]').textContent.includes('Cy')"
        )
        assert guest.page.get_attribute("[data-testid=invite-link]", "value") == link
        guest.close()
        host.close()
    finally:
        friend.close()


def test_without_a_public_url_the_links_are_on_the_pages_address(server: str, browser: Any) -> None:
    watch = Watch(browser)
    page = watch.page
    address = create_table(page, server, "Kitchen")
    shows(page, address)
    qr = page.wait_for_selector("[data-testid=invite-qr][data-link]")
    assert qr.get_attribute("data-link") == address
    assert qr_matrix(_svg(f"{address.replace('/t/', '/api/tables/')}/invite.svg")) in qr_matrices(
        address
    )
    sit(page, 0, "Di")
    field = page.wait_for_selector("[aria-label='your seat link']", state="attached")
    # the server's link is relative; the page shows it whole, to open on another device
    assert re.fullmatch(rf"{re.escape(address)}#token=[\w-]+", field.get_attribute("value") or "")
    watch.close()
