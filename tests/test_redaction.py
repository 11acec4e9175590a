"""The one secret-redacting log filter (settings.SecretRedactor), as serve and the LLM client use it."""

from __future__ import annotations

import logging

from pydantic import SecretStr

from threadgraph.settings import SecretRedactor, Settings


def _record(msg, *args) -> logging.LogRecord:
    return logging.LogRecord("t", logging.WARNING, __file__, 1, msg, args, None)


def test_redacts_every_secret_of_the_settings_in_the_formatted_message():
    s = Settings(_env_file=None, slack_bot_token=SecretStr("xoxb-123456"), openai_api_key=SecretStr("sk-abcdef-987"),
                 telegram_bot_token=SecretStr("1:x"))
    flt = SecretRedactor.for_settings(s)
    rec = _record("token %s then key %s", "xoxb-123456", "sk-abcdef-987")
    assert flt.filter(rec) is True
    assert rec.getMessage() == "token *** then key ***" and rec.args == ()
    # a value shorter than six characters ("1:x") would redact ordinary text: it is ignored
    rec = _record("chat 1:x said hi")
    assert flt.filter(rec) and rec.getMessage() == "chat 1:x said hi"


def test_added_secrets_and_untouched_records():
    flt = SecretRedactor()
    rec = _record("nothing to hide %d", 5)
    assert flt.filter(rec) and rec.args == (5,)  # no secrets: the record is not rewritten
    flt.add("sk-test-ZQ9X-distinctive")
    rec = _record("Error 401: invalid key sk-test-ZQ9X-distinctive")
    assert flt.filter(rec) and rec.getMessage() == "Error 401: invalid key ***"


def test_sdk_exception_text_is_redacted_from_tracebacks():
    """python-telegram-bot puts the token into the exception message (InvalidToken: The token
    `…` was rejected by the server.); a logged traceback printed it in full."""
    import io

    from telegram.error import InvalidToken

    token = "123456:AAF-secret-token-part"
    flt = SecretRedactor([token])
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.addFilter(flt)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    log = logging.getLogger("threadgraph.test.redaction")
    log.addHandler(handler)
    try:
        try:
            raise InvalidToken(f"The token `{token}` was rejected by the server.")
        except InvalidToken:
            log.exception("telegram start failed")
    finally:
        log.removeHandler(handler)
    text = out.getvalue()
    assert "AAF-secret-token-part" not in text and "123456" not in text
    assert "ERROR telegram start failed" in text and "InvalidToken: The token `***` was rejected" in text


def test_secret_half_of_a_telegram_token_is_redacted_alone():
    flt = SecretRedactor(["123456:AAF-secret-token-part"])
    rec = _record("GET https://api.telegram.org/bot123456%3AAAF-secret-token-part/getMe")
    assert flt.filter(rec) and "AAF-secret-token-part" not in rec.getMessage()
