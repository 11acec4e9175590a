""""Must I …?" answered by the passage line that marks the step optional (bot/reader.py
``optional_line``; the cues are data: ``need_question`` and ``optional_line`` in
bot/lexicon/words.yaml). Lines and questions are literals from the dev corpora:

* ops-2i2c-infra howto/troubleshoot/cilogon-user-accounts.md:9 "2. **Clear browser cookies** (optional). …",
  howto/manage-domains/override-domain.md:34 "3. (Optional) Encrypt the file with `sops`."
* ops-2i2c-compass reference/documentation/edit.md:76 "### Preview your changes (optional)"
* ops-2i2c-compass business-development/meetings/sales-sync.md:25-26 "- **Delivery Manager/Chief of
  Staff** [Harold Campbell] (optional) …", "- **Executive Director** [Chris Holdgraf] (typically optional …"
* zh-zehua recipes/new-orleans-chicken.md:40 "3. (可选)开启炙烤功能 3 分钟左右"
* zh-drinks drinks/sweet-soup/mung-bean.md:56 "放入薄荷叶（可选）"
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from conftest import REPO, bot_over
from threadgraph.bot import reader, words

GEN = REPO / "benchmarks" / "generalization"


@dataclass
class Chunk:
    id: str
    doc: str
    section: str
    text: str
    line: int


def _opt(question, text, lang, section=""):
    return reader.optional_line(question, [Chunk("p", "d.md", section, text, 1)], words.optional_line(lang))


def test_the_question_cues_of_both_languages():
    assert words.need_question("en").search("When I override a hub's domain, must I encrypt the file with sops?")
    assert words.need_question("en").search("Does the user always have to clear browser cookies to fix a CILogon account?")
    assert words.need_question("en").search("Is previewing my changes required when editing docs locally?")
    assert words.need_question("zh").search("新奥尔良烤鸡一定要开炙烤功能吗？")
    assert not words.need_question("en").search("How do I decrypt an age-encrypted message a community sent us?")


def test_the_line_marked_optional_about_the_same_thing_answers():
    got = _opt("When I override a hub's domain, must I encrypt the file with sops?",
               "   ```\n3. (Optional) Encrypt the file with `sops`.", "en")
    assert got.text == "3. (Optional) Encrypt the file with `sops`." and got.line == 2
    got = _opt("Is previewing my changes required when editing docs locally?",
               "To preview your documentation locally, see the instructions.", "en",
               section="Edit documentation locally > Preview your changes (optional)")
    assert got.text == "Preview your changes (optional)"
    got = _opt("新奥尔良烤鸡一定要开炙烤功能吗？", "2. 烤 20 分钟\n3. (可选)开启炙烤功能 3 分钟左右", "zh")
    assert got.text == "3. (可选)开启炙烤功能 3 分钟左右"
    got = _opt("薄荷叶一定要放入吗？", "3. 最后步骤：\n   - 放入薄荷叶（可选）\n   - 调整稠度", "zh")
    assert got.text == "放入薄荷叶（可选）"


def test_a_follow_ups_own_words_choose_among_optional_lines():
    lines = ("- **Delivery Manager/Chief of Staff** [Harold Campbell] (optional) - He is helping to set up the CRM\n"
             "- **Executive Director** [Chris Holdgraf] (typically optional unless there is a hot lead to shape)")
    asked = "Is the Chief of Staff required at the sales sync? And the Executive Director?"
    got = reader.optional_line(asked, [Chunk("p", "d.md", "", lines, 24)], words.optional_line("en"),
                               first="And the Executive Director?")
    assert got.text.startswith("**Executive Director** [Chris Holdgraf] (typically optional") and got.line == 25
    got = reader.optional_line("Is the Chief of Staff required at the sales sync?", [Chunk("p", "d.md", "", lines, 24)],
                               words.optional_line("en"))
    assert got.text.startswith("**Delivery Manager/Chief of Staff**")


def test_an_optional_line_about_something_else_is_no_answer():
    assert _opt("must I encrypt the file with sops?", "2. **Clear browser cookies** (optional).", "en") is None
    assert _opt("薄荷叶一定要放入吗？", "3. (可选)开启炙烤功能 3 分钟左右", "zh") is None


@pytest.fixture(scope="module")
def ask(tmp_path_factory):
    return bot_over(tmp_path_factory.mktemp("optline"),
                    {"infra/cilogon-user-accounts.md": GEN / "ops-2i2c-infra/docs/howto/troubleshoot/cilogon-user-accounts.md",
                     "infra/override-domain.md": GEN / "ops-2i2c-infra/docs/howto/manage-domains/override-domain.md",
                     "compass/edit.md": GEN / "ops-2i2c-compass/docs/reference/documentation/edit.md"})  # a distractor


def test_must_i_is_answered_by_the_optional_step(ask):
    a = ask("Does the user always have to clear browser cookies to fix a CILogon account?", thread="c")
    assert a.found and a.answer.startswith("No, it is optional") and "Clear browser cookies" in a.answer
    a = ask("When I override a hub's domain, must I encrypt the file with sops?", thread="s")
    assert a.found and "(Optional) Encrypt the file with sops" in a.answer  # the chunk text drops the backticks
