// A step's `colorMapping` (SageResearch's RSDColorMappingThemeElement) as background colours:
// `singleColor` colours the whole step, `placementMapping` its header, body and footer each.
// The named styles (RSDColorStyle) map to this UI's palette (css/app.css, "Step colours"), each
// with text and controls that keep WCAG AA contrast on it. A `customColor` names a colour of an
// iOS asset catalog, which is not here: its `usesLightStyle` picks a dark or a light background.
const styles = new Set(["white", "black", "background", "primary", "secondary", "accent", "successGreen", "errorRed"]);

function styleClass(style, custom) {
  if (styles.has(style)) return `color-${style}`;
  if (custom && typeof custom === "object") return custom.usesLightStyle ? "color-customDark" : "color-customLight";
  return null;
}

export function applyColorMapping(mapping, nodes) {
  if (!mapping || typeof mapping !== "object") return;
  if (mapping.type === "singleColor") {
    const name = styleClass(mapping.colorStyle, mapping.customColor);
    if (name) nodes.step.classList.add(name);
  } else if (mapping.type === "placementMapping" && mapping.placement && typeof mapping.placement === "object") {
    for (const part of ["header", "body", "footer"]) {
      const name = styleClass(mapping.placement[part], mapping.customColor);
      if (name && nodes[part]) nodes[part].classList.add(name);
    }
  }
}
