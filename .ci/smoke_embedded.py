"""Start `make run` on a clean copy, wait for /healthz, sign up and log in, stop it.

Run by .ci/run with no DATABASE_URL/REDIS_URL set: this is the embedded default a person
gets on a fresh machine. Exits non-zero if any step fails.
"""

import http.cookiejar
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PORT = "8765"
BASE = f"http://127.0.0.1:{PORT}"


def main() -> int:
    work = Path(tempfile.mkdtemp(prefix="dominoes-smoke-"))
    subprocess.run(["git", "clone", "-q", str(ROOT), str(work / "app")], check=True)
    app = work / "app"
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DATABASE_URL", "REDIS_URL", "REQUIRE_SERVICES"}
    }
    log = open(work / "run.log", "w")
    server = subprocess.Popen(
        ["make", "run", f"PORT={PORT}"],
        cwd=app,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        return exercise()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.close()
        print((work / "run.log").read_text()[-3000:])
        shutil.rmtree(work, ignore_errors=True)


def exercise() -> int:
    deadline = time.monotonic() + 600
    while True:
        try:
            with urllib.request.urlopen(f"{BASE}/healthz", timeout=5) as resp:
                print("healthz:", resp.status, resp.read().decode())
                break
        except (urllib.error.URLError, ConnectionError, OSError) as exc:
            if time.monotonic() > deadline:
                print("server never became healthy:", exc)
                return 1
            time.sleep(1)
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def form(path: str, fields: dict[str, str]) -> tuple[int, str, str]:
        page = opener.open(BASE + path).read().decode()
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        data = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **fields}).encode()
        req = urllib.request.Request(
            BASE + path, data=data, headers={"Referer": BASE + path}
        )
        with opener.open(req) as resp:
            return resp.status, resp.geturl(), resp.read().decode()

    user = f"smoke{int(time.time()) % 100000}"
    status, url, body = form(
        "/accounts/signup/",
        {
            "username": user,
            "email": f"{user}@example.com",
            "password1": "a-Long-pass-42",
            "password2": "a-Long-pass-42",
        },
    )
    if user not in body:
        print("sign-up failed:", status, url)
        return 1
    opener.open(BASE + "/")  # fresh CSRF cookie after login
    status, url, body = form("/accounts/logout/", {})
    status, url, body = form(
        "/accounts/login/", {"login": user, "password": "a-Long-pass-42"}
    )
    if user not in body:
        print("log-in failed:", status, url)
        return 1
    print(f"signed up and logged in as {user}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
