import DOMPurify, { type Config } from 'dompurify';
import type { Token, TokensList } from 'marked';
import { t } from '../../../webviewPage/l10n';
import { el } from '../../../webviewPage/dom';
import { fenceLanguage, hasHighlighter, highlightCode } from './highlight';
import { CODE_BLOCK_MARK, markdownToHtml, tokensToHtml } from './markdownParser';

// Sanitizes the HTML of markdownParser.ts before it touches the DOM. Raw HTML in a reply passes only through the
// sanitizer: no script, no event handler, no style, no form, no javascript: link survives. Nor do the attributes a
// reply could use to look like Promptreel's own controls or to hide text (class, id, hidden, data-*): only the
// classes of highlighted code and the marks of fenced code blocks stay, on the elements that carry them.

const FORBID_TAGS = [
  'style',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'option',
  'iframe',
  'object',
  'embed',
  'img',
  'svg',
  'math',
  'video',
  'audio',
  'source',
  'link',
  'meta',
  'base',
];

/** The classes the highlighter writes, by element; any other class is the reply's and goes. */
const GENERATED_CLASSES: Record<string, RegExp> = {
  CODE: /^hljs( language-[\w+#.-]+)?$/,
  SPAN: /^hljs-[\w-]+( [\w-]+)*$/,
};

DOMPurify.addHook('uponSanitizeAttribute', (node, data) => {
  const element = node.nodeName;
  if (data.attrName === 'class') data.keepAttr = GENERATED_CLASSES[element]?.test(data.attrValue) === true;
  else if (data.attrName === 'data-lang') data.keepAttr = element === 'CODE';
  else if (data.attrName === 'data-block') data.keepAttr = element === 'PRE' && data.attrValue === CODE_BLOCK_MARK;
});

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

const SANITIZE: Config & { RETURN_DOM_FRAGMENT: true } = {
  RETURN_DOM_FRAGMENT: true,
  FORBID_TAGS,
  FORBID_ATTR: ['style', 'srcset', 'action', 'formaction', 'id', 'name', 'hidden'],
  ALLOW_DATA_ATTR: false,
  ADD_ATTR: ['data-lang', 'data-block'],
  ALLOW_UNKNOWN_PROTOCOLS: false,
};

function sanitize(html: string): DocumentFragment {
  const fragment = DOMPurify.sanitize(html, SANITIZE);
  decorateCodeBlocks(fragment);
  return fragment;
}

/**
 * Code blocks rendered before the highlighter loaded that name a language, in the page or in a message view kept out
 * of it: highlighted when it arrives. Nothing is added once it is there.
 */
const unhighlighted = new Set<HTMLElement>();

/** Lines of a code block, highlighted and sanitized as a block's code is, to add to the block's `<code>`. */
export function renderCodeLines(code: string, fence: string | undefined): DocumentFragment {
  return DOMPurify.sanitize(highlightCode(code, fence).html, SANITIZE);
}

/** Highlights the code blocks rendered as plain text while the highlighter was loading (the text is unchanged). */
export function highlightRendered(): void {
  for (const code of unhighlighted) {
    const { html, language } = highlightCode(code.textContent ?? '', code.dataset.lang);
    if (!language) continue;
    code.replaceChildren(DOMPurify.sanitize(html, SANITIZE));
    code.className = `hljs language-${language}`;
  }
  unhighlighted.clear();
}

/** The code element each toolbar button acts on: only buttons made here are in it. */
const codeOfButton = new WeakMap<Element, HTMLElement>();

export type CodeAction = 'copy' | 'insert' | 'replace' | 'newFile';

/** What a click on a code toolbar button asks for; undefined for anything that is not one of ours. */
export function codeActionOf(target: Element): { action: CodeAction; code: string; language?: string } | undefined {
  const button = target.closest('button.code-action');
  const code = button ? codeOfButton.get(button) : undefined;
  const action = button instanceof HTMLElement ? button.dataset.codeAction : undefined;
  if (!code || (action !== 'copy' && action !== 'insert' && action !== 'replace' && action !== 'newFile')) return undefined;
  return { action, code: code.textContent ?? '', ...(code.dataset.lang ? { language: code.dataset.lang } : {}) };
}

/**
 * Wraps each fenced code block with a toolbar: Copy, Insert at Cursor, Replace Selection, New File (the host does
 * the work). A `<pre>` from the reply's own HTML gets none: its text could hide what the buttons would act on.
 */
function decorateCodeBlocks(root: DocumentFragment): void {
  for (const pre of Array.from(root.querySelectorAll(`pre[data-block="${CODE_BLOCK_MARK}"]`))) {
    pre.removeAttribute('data-block');
    const code = pre.querySelector('code');
    if (!code) continue;
    const language = code.dataset.lang ?? '';
    if (!hasHighlighter() && fenceLanguage(language)) unhighlighted.add(code);
    const toolbar = el(
      'div',
      { className: 'code-toolbar', attrs: { role: 'toolbar', 'aria-label': language ? t('Code block actions ({0})', language) : t('Code block actions') } },
      [
        el('span', { className: 'code-language', text: language }),
        codeButton(t('Copy'), 'copy', t('Copy the code')),
        codeButton(t('Insert'), 'insert', t('Insert the code at the cursor')),
        codeButton(t('Replace'), 'replace', t('Replace the editor selection with the code')),
        codeButton(t('New File'), 'newFile', t('Open the code in a new file')),
      ],
    );
    for (const button of Array.from(toolbar.querySelectorAll('button.code-action'))) codeOfButton.set(button, code);
    // It scrolls sideways: keyboard users reach it with Tab and scroll it with the arrow keys.
    pre.setAttribute('tabindex', '0');
    const block = el('div', { className: 'code-block' });
    pre.replaceWith(block);
    block.append(toolbar, pre);
  }
}

function codeButton(label: string, action: string, ariaLabel: string): HTMLButtonElement {
  return el('button', {
    className: 'code-action',
    text: label,
    attrs: { type: 'button', 'aria-label': ariaLabel, title: ariaLabel },
    dataset: { codeAction: action },
  });
}
