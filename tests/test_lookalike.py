"""Names made to pass for another's: the skeleton they read as, mixed scripts, and how a screen
names the person behind a seat whose name is not theirs."""

from __future__ import annotations

from dvtui.lookalike import MIXED_MARK, looks_forged, same_name, shown_as, skeleton


def test_a_cyrillic_or_styled_name_reads_as_the_latin_one_and_is_flagged() -> None:
    assert skeleton("sec3\u0430na") == skeleton("𝐬𝐞𝐜𝟑𝐚𝐧𝐚") == skeleton("SEC3ANA") == "sec3ana"
    assert looks_forged("sec3\u0430na") and looks_forged("𝐬𝐞𝐜𝟑𝐚𝐧𝐚") and looks_forged("ｓｅｃ")
    assert not looks_forged("Zoé") and not looks_forged("Ана") and not looks_forged("Bot 1")


def test_a_screen_names_the_holder_beside_a_name_that_is_not_theirs() -> None:
    assert shown_as("sec3\u0430na", "web:mal") == f"sec3\u0430na {MIXED_MARK} (web:mal)"
    assert shown_as("Ana", "web:ana") == shown_as("Ana", "ana") == "Ana"  # their own name
    assert shown_as("Ana", "root") == "Ana (root)"
    assert shown_as("Ana", None) == "Ana" and same_name("ana", "WEB:Ana")
