"""A native app's interactive sign-in (RFC 8252) run the way a desktop application runs it: the
library's blocking call, which listens on loopback, opens the system browser, waits for the
redirect and redeems the code, goes on a thread of its own. The browser it opens is one registered
with Python's webbrowser module that opens nothing: it hands the URL over, for the adapter to
answer begin_native_sign_in with, and the harness is the browser that visits it."""

import itertools
import queue
import threading
import webbrowser

from oauth_adapter import ClientError

_numbers = itertools.count(1)


class HandingOverBrowser(webbrowser.BaseBrowser):
    """A webbrowser controller whose open() hands the URL over instead of launching a program."""

    def __init__(self, name, urls):
        super().__init__(name)
        self.urls = urls

    def open(self, url, new=0, autoraise=True):
        self.urls.put(url)
        return True


class NativeSignIn:
    """One interactive sign-in: `run(browser)` is the library's call, given the name under which
    the handing-over browser is registered (webbrowser.get(browser) returns it). It starts at once,
    on a daemon thread: one the harness abandons (it never reached the listener) ends with the
    library's own timeout and keeps nothing of a later scenario's."""

    def __init__(self, run):
        self.browser = f"conformance-browser-{next(_numbers)}"
        self._urls = queue.Queue()
        webbrowser.register(self.browser, None, HandingOverBrowser(self.browser, self._urls))
        self._done = threading.Event()
        self._result = None
        self._error = None
        self._thread = threading.Thread(target=self._run, args=(run,), name=self.browser, daemon=True)
        self._thread.start()

    def _run(self, run):
        try:
            self._result = run(self.browser)
        except BaseException as exception:  # the library's error: finish() raises it to the application
            self._error = exception
        finally:
            self._done.set()
            self._urls.put(None)  # wakes open_url() when the call ended without opening a browser

    def open_url(self, timeout):
        """The URL the library opened; what it raised if it ended first."""
        try:
            url = self._urls.get(timeout=timeout)
        except queue.Empty:
            raise ClientError("unexpected", f"the library opened no browser within {timeout} s") from None
        if url is None:
            raise self._error or ClientError("unexpected", "the sign-in ended without opening a browser")
        return url

    def finish(self, timeout):
        """What the library's call returned, once it has; what it raised."""
        if not self._done.wait(timeout):
            raise ClientError("unexpected", f"the sign-in was still waiting after {timeout} s")
        if self._error is not None:
            raise self._error
        return self._result
