"""The workbench's side of the kept session: the offer at start, restoring it, saving it.

At start the last session (session_store.py) is offered on the message line (Ctrl+R restores
it), restored at once, or left alone, as the `workbench.restore` setting says; the offer holds
until the session is first saved, which happens once it differs from a fresh one. The session
is saved every `SAVE_SECONDS` when it changed, and when the workbench ends. Without a store
(tests, unless they give one) nothing is offered or saved.
"""

from __future__ import annotations

from .session_store import SessionStore, describe

SAVE_SECONDS = 30.0
"""How often a changed session is saved while the workbench runs (and at the end)."""


class SessionKeeper:
    """Offers, restores and saves the session of `app` (a CubeLabApp) in `store`; `mode` is
    the workbench.restore setting: "ask", "always" or "never"."""

    def __init__(self, app, store: SessionStore | None, mode: str = "ask"):
        self.app = app
        self.store = store
        self.mode = mode
        self.offer: dict | None = None
        """The kept session while the start offers it (None once taken, or given up)."""

    def start(self) -> tuple[str, bool]:
        """Read the kept session and offer or restore it: (what to say, is it a problem)."""
        if self.store is None:
            return "", False
        self.app.set_interval(SAVE_SECONDS, self.save)
        if self.mode == "never":
            return "", False
        record, problem = self.store.load()
        if problem:
            return problem, True
        if record is None:
            return "", False
        if self.mode == "always":
            return self.restore(record)
        self.offer = record
        keys = self.app.keymap.shown("cubelab.restore")
        return f"{keys} restores the last session ({describe(record)})", False

    def restore(self, record: dict | None = None) -> tuple[str, bool]:
        """Bring back `record` (the offered session by default) into the workbench."""
        record = record if record is not None else self.offer
        self.offer = None
        if record is None or self.store is None:
            return "no session to restore (the start offers one while it is the last)", True
        problem = self.store.restore(self.app.session, record)
        if problem:
            return problem, True
        self.app.show_restored()
        return f"restored the last session ({describe(record)})", False

    def save(self) -> None:
        """Keep the session if it changed; the offer ends once this session replaces it."""
        if self.store is None:
            return
        problem = self.store.save(self.app.session)
        if problem:
            self.app.say(problem, error=True)
        elif self.store.wrote:          # this session is the kept one now
            self.offer = None
