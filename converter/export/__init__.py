"""Export to online play: CCFOLIA pieces, Udonarium characters, BCDice chat palettes, built from
a checked document's derived values (docs/vtt.md). Nothing re-exported."""
