// Small DOM helpers. No inline styles or handlers in markup: the page's Content-Security-Policy
// is `default-src 'self'`.
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "class") node.className = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

const svgNS = "http://www.w3.org/2000/svg";

export function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(svgNS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) node.append(child);
  return node;
}

export function button(label, onclick, { secondary = false, id, large = false } = {}) {
  const classes = [secondary ? "secondary" : "", large ? "large" : ""].filter(Boolean).join(" ");
  return el("button", { type: "button", class: classes || undefined, id, onclick }, label);
}
