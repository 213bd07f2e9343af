"""The rules guide: which variants it explains, their deal tables, example layouts
and the SVG pictures of those layouts. The prose lives in templates/games/rules/."""
