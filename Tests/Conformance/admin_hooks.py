"""Schemathesis hooks for the run with the admin token (loaded through SCHEMATHESIS_HOOKS).

The whole document is tested, and two of its operations would end the admin's own
session halfway through: POST /v1/auth/logout revokes the token it is called with, and
POST /v1/accounts/{id}/revoke-tokens revokes every token of the admin once schemathesis
has read the admin's id from GET /v1/accounts. Every later request would then answer 401
and hide the real findings, so those two calls are pointed at a spare account instead.
"""

import os

import requests
import schemathesis

URL = os.environ["CONFORMANCE_URL"]
ADMIN_TOKEN = os.environ["CONFORMANCE_ADMIN_TOKEN"]
ADMIN_ID = os.environ["CONFORMANCE_ADMIN_ID"]
SPARE_ID = os.environ["CONFORMANCE_SPARE_ID"]
SPARE_LOGIN = {"email": os.environ["CONFORMANCE_SPARE_EMAIL"], "password": os.environ["CONFORMANCE_PASSWORD"]}


@schemathesis.auth()
class AdminToken:
    """Sends the admin token, as `-H "Authorization: Bearer …"` would, but on the case, where a hook may change it."""

    def get(self, case, ctx):
        return ADMIN_TOKEN

    def set(self, case, token, ctx):
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {token}"}


@schemathesis.hook
def before_call(ctx, case, **kwargs):
    headers = case.headers or {}
    if case.path == "/v1/auth/logout" and headers.get("Authorization") == f"Bearer {ADMIN_TOKEN}":
        # A fresh session of the spare account each time, so logout is tested on a live token (204).
        answer = requests.post(f"{URL}/v1/auth/login", json=SPARE_LOGIN, timeout=10)
        spare = answer.json().get("token", "spare-account-disabled") if answer.ok else "spare-account-disabled"
        case.headers = {**headers, "Authorization": f"Bearer {spare}"}
    if case.path == "/v1/accounts/{id}/revoke-tokens" and (case.path_parameters or {}).get("id") == ADMIN_ID:
        case.path_parameters = {**case.path_parameters, "id": SPARE_ID}
