// Small line icons drawn with the text colour (the page loads no icon font). Built with DOM calls, like the rest.

const SVG = 'http://www.w3.org/2000/svg';

const PATHS = {
  history: ['M2.9 10.5A5.5 5.5 0 1 0 3.4 4.6', 'M2.5 2v3.2h3.2', 'M8 4.8V8l2.2 1.6'],
  search: ['M6.8 2.5a4.3 4.3 0 1 0 0 8.6 4.3 4.3 0 0 0 0-8.6z', 'M10 10l3.8 3.8'],
  pin: ['M5.2 1.8h5.6', 'M6.3 1.8v4.1L4.3 8.7h7.4L9.7 5.9V1.8z', 'M8 8.7v5.5'],
  export: ['M8 10.2V1.9', 'M5.2 4.7 8 1.9l2.8 2.8', 'M2.8 8.8v4.9h10.4V8.8'],
  import: ['M8 1.9v8.3', 'M5.2 7.4 8 10.2l2.8-2.8', 'M2.8 8.8v4.9h10.4V8.8'],
  trash: ['M2.8 4.2h10.4', 'M6.2 4.2V2.4h3.6v1.8', 'M4.3 4.2l.7 9.6h6l.7-9.6'],
  close: ['M3.8 3.8l8.4 8.4', 'M12.2 3.8l-8.4 8.4'],
} as const;

export type IconName = keyof typeof PATHS;

/** A 16×16 icon, hidden from screen readers (the control it sits in has the label). */
export function icon(name: IconName): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.setAttribute('class', `icon icon-${name}`);
  for (const d of PATHS[name]) {
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    svg.append(path);
  }
  return svg;
}
