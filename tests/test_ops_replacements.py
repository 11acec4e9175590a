"""Replacements stated in policy and standards prose (issue 10): "X is (primarily) replaced with Y", a table
row or list item whose X is its own first cell ("|Feature-Policy| … primarily replaced with `Permissions-Policy`|"),
and "set up Y as a replacement for X". Each cue is read from sentences of at least two collections (ops-gdsway,
ops-govuk and public documentation / code comments); the extraction tests read the corpus files themselves."""
from __future__ import annotations

from pathlib import Path

from conftest import cue_pairs as _read, edge_names, extract_copies, quoted

GEN = Path(__file__).resolve().parents[1] / "benchmarks" / "generalization"
GDS = GEN / "ops-gdsway" / "docs"
GOVUK = GEN / "ops-govuk" / "docs"


def test_x_is_replaced_with_y():
    r = "en.x_is_replaced_with_y"
    # sullo/nikto program/plugins/nikto_headers.plugin (commit 7e3eae4)
    assert _read("X-Frame-Options header is deprecated and has been replaced with the Content-Security-Policy HTTP "
                 "header with the frame-ancestors directive instead.", r) == [("X-Frame-Options header",
                                                                               "Content-Security-Policy HTTP header")]
    # ops-govuk manual/fall-back-to-aws-cloudfront.html.md 70: a participle in a note, no statement of a replacement
    line = quoted(GOVUK / "manual" / "fall-back-to-aws-cloudfront.html.md", 70, "(with 0s replaced with letters and numbers)")
    assert _read(line, r) == []


def test_replaced_with_y_leaves_x_to_the_row_or_item():
    r = "en.replaced_with_y_focus"
    # ops-gdsway manuals/security-overview-for-websites.html.md 139 (the row's second cell)
    assert _read("Previously used to specify features the browser could access, primarily replaced with "
                 "`Permissions-Policy`", r) == [("", "Permissions-Policy")]
    # a public API's parameter description: "Deprecated. Replaced by 'orderBy'. Previously used to specify the active
    # sorting property."
    assert _read("Replaced by 'orderBy'.", r) == [("", "orderBy")]


def test_set_up_y_as_a_replacement_for_x():
    r = "en.set_up_y_as_replacement_for_x"
    # ops-gdsway standards/storing-credentials.html.md 46 (as the reader sees it: the link's text)
    assert _read("The GOV.UK Design System and Prototype Kit teams have recently set up a Bitwarden organisation as a "
                 "replacement for their credentials repository.", r) == [("credentials repository", "Bitwarden organisation")]
    # a public market analysis: "Developers start testing Ray3.14 as a replacement for their current provider."
    assert _read("Developers start testing Ray3.14 as a replacement for their current provider.", r) == [
        ("current provider", "Ray3.14")]


def test_replacements_extracted_from_the_documents(tmp_path):
    sec = GDS / "manuals" / "security-overview-for-websites.html.md"
    creds = GDS / "standards" / "storing-credentials.html.md"
    got = edge_names(extract_copies(tmp_path, sec, creds), "SUBSTITUTES")
    assert quoted(sec, 139, "|Feature-Policy|") and quoted(sec, 139, "primarily replaced with `Permissions-Policy`")
    assert ("Feature-Policy", "Permissions-Policy") in got
    assert quoted(creds, 46, "organisation as a replacement for their credentials repository")
    assert ("credentials repository", "Bitwarden organisation") in got


def test_y_which_you_use_instead_of_x():
    r = "en.y_which_you_use_instead_of_x"
    # ops-gdsway standards/monitoring.html.md 22 (as the reader sees it: the link's text)
    assert _read("Amazon provides a Managed Prometheus service, which you may wish to use instead of hosting Prometheus "
                 "yourself.", r) == [("Prometheus", "Managed Prometheus service")]
    # a public Flutter package README
    assert _read("`MountedState` adds `setMountedState` which you can use instead of `setState`.", r) == [
        ("setState", "setMountedState")]
    # the Istio platform-setup guide: "which" may take up the add-on or the engine it is for: nothing
    assert _read("Huawei offers a managed control plane add-on for the Huawei Cloud Container Engine, which you can use "
                 "instead of installing Istio manually.", r) == []


def test_two_named_things_offered_for_one_use(tmp_path):
    from threadgraph.ingest.documents import DocumentExtractor, named_pairs
    from threadgraph.ingest.readers import parse_file

    creds = GDS / "standards" / "storing-credentials.html.md"
    cd = GDS / "standards" / "continuous-delivery.html.md"
    malware = GEN / "ops-lullabot" / "docs" / "physical" / "malware.md"
    dr = GDS / "standards" / "disaster-recovery.html.md"
    got = {}
    for f in (creds, cd, malware, dr):
        d = parse_file(f, f.name)
        raw = f.read_text(encoding="utf-8").split("\n")
        got[f.name] = [(x, y, line) for x, y, _, line in
                       named_pairs(d.blocks, lambda b: "\n".join(raw[b.line - 1:b.end_line]))]
    assert quoted(creds, 36, "use [pass](https://www.passwordstore.org/) or [blackbox]")
    assert got[creds.name] == [("pass", "blackbox", 36)]
    assert quoted(cd, 47, "approaches like [feature-flagging][] or [modular architectures][]")
    assert got[cd.name] == [("feature-flagging", "modular architectures", 47)]
    assert quoted(malware, 47, "consider using an extension like [NoScript]")
    assert got[malware.name] == [("NoScript", "Ghostery", 47)]
    # "(for example, RubyGems, PyPI or Docker Hub)": examples in a list, no "use", no names written as links
    assert quoted(dr, 38, "RubyGems, PyPI or Docker Hub") and got[dr.name] == []
    subs = edge_names(extract_copies(tmp_path, creds, cd), "SUBSTITUTES")
    assert {("pass", "blackbox"), ("feature-flagging", "modular architectures")} <= subs
