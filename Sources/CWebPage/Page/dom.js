// The page's elements, looked up once the document is parsed (module
// scripts run then). No imports: every part may use it while the others load.

export function $(id) { return document.getElementById(id); }

export const canvas = $('table');
export const ctx = canvas.getContext('2d');
