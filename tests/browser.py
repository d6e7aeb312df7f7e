"""Open a page in headless Chromium and report what a reader would meet: console errors,
images that did not load, whether the headline shows without scrolling, whether the page
is wider than the window. Driven over the Chrome DevTools Protocol (a websocket), with the
Debian `chromium` package: no browser is downloaded.

Used by tests/test_browser.py; `python -m tests.browser PAGE.html SHOT.png` runs it by hand.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

CHROMIUM_NAMES = ("chromium", "chromium-browser")
FLAGS = (  # flags that work on this machine and in CI (root, no display, no network needed)
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--remote-debugging-port=0", "--remote-allow-origins=*",
)
WINDOW = (1280, 800)  # a laptop screen: the headline must show in it without scrolling

PROBE = """(() => {
  const images = Array.from(document.images).map(i => ({src: i.src.slice(0, 60), ok: i.complete && i.naturalWidth > 0}));
  const heading = document.getElementById('headline');
  const first = heading ? heading.nextElementSibling : null;
  const box = e => e ? e.getBoundingClientRect() : null;
  const h = box(heading), f = box(first && (first.firstElementChild || first));
  return {
    images,
    headline_visible: !!(h && f && h.top >= 0 && f.top < innerHeight && f.bottom > 0 && scrollY === 0),
    headline_text: first ? first.innerText.slice(0, 200) : '',
    page_width: document.documentElement.scrollWidth,
    window_width: innerWidth,
  };
})()"""


@dataclass
class PageCheck:
    console_errors: list[str] = field(default_factory=list)
    broken_images: list[str] = field(default_factory=list)
    images: int = 0
    headline_visible: bool = False
    headline_text: str = ""
    wider_than_window: bool = False

    def problems(self) -> list[str]:
        out = [f"console error: {e}" for e in self.console_errors]
        out += [f"image did not load: {src}" for src in self.broken_images]
        if not self.headline_visible:
            out.append("the headline is not visible without scrolling")
        if self.wider_than_window:
            out.append("the page is wider than the window (a table or image does not fit)")
        return out


def find_chromium() -> str | None:
    """The Chromium executable: $SIMKIT_CHROMIUM, else `chromium` on PATH."""
    explicit = os.environ.get("SIMKIT_CHROMIUM")
    if explicit:
        return explicit
    return next((path for name in CHROMIUM_NAMES if (path := shutil.which(name))), None)


class _Session:
    """One page's DevTools websocket: numbered commands, events kept as they arrive."""

    def __init__(self, url: str):
        import websocket

        self.socket = websocket.create_connection(url, timeout=30)
        self.events: list[dict] = []
        self.next_id = 0

    def call(self, method: str, **params) -> dict:
        self.next_id += 1
        self.socket.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def wait_for(self, method: str, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while not any(e.get("method") == method for e in self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {method} within {timeout} s")
            self.events.append(json.loads(self.socket.recv()))

    def close(self) -> None:
        self.socket.close()


def _devtools_port(profile: Path, process: subprocess.Popen, timeout: float = 30.0) -> int:
    marker = profile / "DevToolsActivePort"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if marker.exists() and marker.read_text().strip():
            return int(marker.read_text().split()[0])
        if process.poll() is not None:
            raise RuntimeError(f"chromium exited with {process.returncode}: {process.stderr.read()[-2000:]}")
        time.sleep(0.1)
    raise TimeoutError("chromium did not open its DevTools port")


def check_page(page: Path, screenshot: Path | None = None, chromium: str | None = None) -> PageCheck:
    """Load `page` in headless Chromium and report what a reader would meet; save a
    screenshot of the first screen to `screenshot` if given."""
    executable = chromium or find_chromium()
    if not executable:
        raise FileNotFoundError("chromium is not installed (apt-get install chromium)")
    with tempfile.TemporaryDirectory(prefix="simkit-chromium-") as profile:
        process = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={profile}", f"--window-size={WINDOW[0]},{WINDOW[1]}",
             "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )
        try:
            port = _devtools_port(Path(profile), process)
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10) as response:
                targets = json.load(response)
            target = next(t for t in targets if t.get("type") == "page")
            session = _Session(target["webSocketDebuggerUrl"])
            try:
                for domain in ("Page", "Runtime", "Log"):
                    session.call(f"{domain}.enable")
                session.call("Emulation.setDeviceMetricsOverride", width=WINDOW[0], height=WINDOW[1],
                             deviceScaleFactor=1, mobile=False)
                session.call("Page.navigate", url=Path(page).resolve().as_uri())
                session.wait_for("Page.loadEventFired")
                probe = session.call("Runtime.evaluate", expression=PROBE, returnByValue=True)["result"]["value"]
                result = PageCheck(
                    console_errors=_errors(session.events),
                    broken_images=[i["src"] for i in probe["images"] if not i["ok"]],
                    images=len(probe["images"]),
                    headline_visible=probe["headline_visible"],
                    headline_text=probe["headline_text"],
                    wider_than_window=probe["page_width"] > probe["window_width"],
                )
                if screenshot is not None:
                    shot = session.call("Page.captureScreenshot", format="png")
                    Path(screenshot).parent.mkdir(parents=True, exist_ok=True)
                    Path(screenshot).write_bytes(base64.b64decode(shot["data"]))
                return result
            finally:
                session.close()
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _errors(events: list[dict]) -> list[str]:
    """Console errors, uncaught exceptions and failed loads among the DevTools events."""
    out = []
    for event in events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params.get("exceptionDetails", {})
            out.append(details.get("exception", {}).get("description") or details.get("text", "exception"))
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            out.append(" ".join(str(arg.get("value", arg.get("description", ""))) for arg in params.get("args", [])))
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            entry = params["entry"]
            out.append(f"{entry.get('text', '')} {entry.get('url', '')}".strip())
    return out


if __name__ == "__main__":
    found = check_page(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)
    print(json.dumps(found.__dict__, indent=1))
    sys.exit(1 if found.problems() else 0)
