"""A judge whose failure quotes a secret in every form a provider or a client library has
been seen to quote one, for the tests that grep what each surface writes.

The judge is ``python:leaky_judges:leaky`` (``tests/`` is on the import path); its
``RuntimeError`` quotes each form of :data:`FORMS` with a needle of its own, and the
value of the environment variable :data:`ENV_NAME` (the test sets it to
:data:`ENV_VALUE`). :data:`NEEDLES` is every string that must appear nowhere.
"""

from __future__ import annotations

import os

from prin_guard import FunctionJudge, Judge

ENV_NAME = "LEAKY_GATEWAY_TOKEN"
"""A secret variable (``*_TOKEN``) whose value the judge's error quotes bare."""
ENV_VALUE = "gw7Hq2NeedleEnvValue"

FORMS: dict[str, tuple[str, str]] = {
    # form: (how it is quoted, the secret in it)
    "token=": ("token=Tk9NeedleTokenParam", "Tk9NeedleTokenParam"),
    "api_key=": ("api_key=Ak3NeedleApiKeyParam", "Ak3NeedleApiKeyParam"),
    "Bearer": ("sent Bearer Br5NeedleBearerValue", "Br5NeedleBearerValue"),
    "sk-": ("sk-Sk1NeedlePlainOpenAi", "Sk1NeedlePlainOpenAi"),
    "sk-ant-": ("sk-ant-api03-An7NeedleAnthropic", "An7NeedleAnthropic"),
    "sk-proj-": ("sk-proj-Pj2NeedleProjectKey", "Pj2NeedleProjectKey"),
    "Authorization header": (
        "{'Authorization': 'Basic Au4NeedleBasicHeader'}",
        "Au4NeedleBasicHeader",
    ),
    "URL credentials": (
        "https://svc:Ur8NeedleUrlPassword@llm.internal.example/v1",
        "Ur8NeedleUrlPassword",
    ),
    # litellm's authentication errors quote a key in part: the parts are still the key's
    "partial key": ("Incorrect API key provided: sk-Pa6Ndl****************Xq4Zt", "Pa6Ndl"),
    "partial key end": ("and 9mK2Ww**********Xq4Zt", "Xq4Zt"),
    # issue 37, item 7: shapes that leaked (the scheme word was redacted, the secret kept)
    "Authorization, unknown scheme": (
        "headers {'Authorization': 'Custom Cs3NeedleCustomScheme'}",
        "Cs3NeedleCustomScheme",
    ),
    "AWS4 signature": (
        "Authorization: AWS4-HMAC-SHA256 Credential=AKIAAW4NEEDLEKEYID01/20260101/us-east-1/"
        "bedrock/aws4_request, SignedHeaders=host;x-amz-date, "
        "Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7",
        "5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7",
    ),
    "AWS4 credential": (
        "Credential=AKIAAW4NEEDLEKEYID02/20260101/us-east-1/s3/aws4_request",
        "AKIAAW4NEEDLEKEYID02",
    ),
    "JSON private_key": (
        '{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n'
        'MIIEvQPk9NeedlePrivateKeyBody\\n-----END PRIVATE KEY-----\\n"}',
        "MIIEvQPk9NeedlePrivateKeyBody",
    ),
    "passphrase=": ("passphrase=Pp4NeedlePassphrase", "Pp4NeedlePassphrase"),
    "bare hf_": ("hf_Hf6NeedleHuggingFaceTokenAbCdEfGhIj", "Hf6NeedleHuggingFaceTokenAbCdEfGhIj"),
    "bare ghp_": (
        "ghp_Gh7NeedleGitHubTokenAbCdEfGhIjKlMnOp",
        "Gh7NeedleGitHubTokenAbCdEfGhIjKlMnOp",
    ),
}

NEEDLES: tuple[str, ...] = (ENV_VALUE, *(secret for _, secret in FORMS.values()), "9mK2Ww")


def message() -> str:
    """The error text: every form, and the environment variable's value."""
    quoted = "; ".join(text for text, _ in FORMS.values())
    return f"upstream refused the call: {quoted}; gateway token {os.environ.get(ENV_NAME, '')}"


def _fail(prompt: str) -> str:
    raise RuntimeError(message())


def leaky() -> Judge:
    """A judge that always fails, quoting every secret."""
    return FunctionJudge(_fail, name="leaky")


def _answer(prompt: str) -> str:
    return "Answer: A, B" if "incorrect" in prompt else "Answer: C"


def honest() -> Judge:
    """A judge that answers (C, and A and B are incorrect): a panel's other member."""
    return FunctionJudge(_answer, name="honest")


def assert_clean(text: str, where: str) -> None:
    """No needle in ``text`` (what ``where`` wrote)."""
    found = [needle for needle in NEEDLES if needle in text]
    assert not found, f"{where} holds {found}:\n{text[:3000]}"
