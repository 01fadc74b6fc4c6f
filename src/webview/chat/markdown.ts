import DOMPurify from 'dompurify';
import type { Token, TokensList } from 'marked';
import { el } from './dom';
import { markdownToHtml, tokensToHtml } from './markdownParser';

// Sanitizes the HTML of markdownParser.ts before it touches the DOM. Raw HTML in a reply passes only through the
// sanitizer: no script, no event handler, no style, no form, no javascript: link survives.

const FORBID_TAGS = ['style', 'form', 'input', 'button', 'textarea', 'select', 'option', 'iframe', 'object', 'embed', 'img', 'svg', 'math', 'video', 'audio', 'source', 'link', 'meta', 'base'];

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node instanceof HTMLAnchorElement) {
    node.setAttribute('rel', 'noopener noreferrer');
    const href = node.getAttribute('href');
    if (href) node.setAttribute('title', href);
  }
});

/** Renders block tokens to a sanitized fragment, code blocks decorated with their actions. */
export function renderTokens(tokens: Token[], links: TokensList['links']): DocumentFragment {
  return sanitize(tokensToHtml(tokens, links));
}

export function renderMarkdown(markdown: string): DocumentFragment {
  return sanitize(markdownToHtml(markdown));
}

function sanitize(html: string): DocumentFragment {
  const fragment = DOMPurify.sanitize(html, {
    RETURN_DOM_FRAGMENT: true,
    FORBID_TAGS,
    FORBID_ATTR: ['style', 'srcset', 'action', 'formaction'],
    ALLOW_UNKNOWN_PROTOCOLS: false,
  });
  decorateCodeBlocks(fragment);
  return fragment;
}

/** Wraps each `pre > code` with a toolbar: Copy, Insert at Cursor, Replace Selection, New File (the host does the work). */
function decorateCodeBlocks(root: DocumentFragment): void {
  for (const pre of Array.from(root.querySelectorAll('pre'))) {
    const code = pre.querySelector('code');
    if (!code) continue;
    const language = code.dataset.lang ?? '';
    const toolbar = el('div', { className: 'code-toolbar', attrs: { role: 'toolbar', 'aria-label': `Code block actions${language ? ` (${language})` : ''}` } }, [
      el('span', { className: 'code-language', text: language }),
      codeButton('Copy', 'copy', 'Copy the code'),
      codeButton('Insert', 'insert', 'Insert the code at the cursor'),
      codeButton('Replace', 'replace', 'Replace the editor selection with the code'),
      codeButton('New File', 'newFile', 'Open the code in a new file'),
    ]);
    const block = el('div', { className: 'code-block' });
    pre.replaceWith(block);
    block.append(toolbar, pre);
  }
}

function codeButton(label: string, action: string, ariaLabel: string): HTMLButtonElement {
  return el('button', { className: 'code-action', text: label, attrs: { type: 'button', 'aria-label': ariaLabel, title: ariaLabel }, dataset: { codeAction: action } });
}
