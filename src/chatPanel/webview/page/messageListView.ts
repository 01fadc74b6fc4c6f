// Pinned by `npm run bench -- --only chat`: frames over 50 ms while streaming, and a 500-message chat's last screen and scroll.
import type { ConversationView, MessageView, ScrollAnchor, WebviewToHost } from '../protocol';
import { el } from '../../../webviewPage/dom';
import type { FrameScheduler } from './frameScheduler';
import { emptyState, onMessageListClick } from './messageList';
import { estimateSlotHeight } from './messageHeights';
import { AssistantMessageView, type MessageHost } from './messageViews';
import { planWindow, rangeBetween, renderOrder, slotOffsets, type IndexRange } from './messageWindow';
import { UserMessageView } from './userMessageView';

type MessageViewInstance = AssistantMessageView | UserMessageView;

/** Pixels from the bottom within which the list follows a streaming reply. */
const FOLLOW_THRESHOLD = 48;
/** Rendered beyond the view, above and below, at least (see planWindow): this, and at least the view's height. */
const MIN_MARGIN = 400;
/** Passes of measuring and rendering in one frame, at most (a poor guess of heights needs a second one). */
const ROUNDS = 4;
/** What rendering messages beyond the view may take of a frame; the rest waits for the next frame, or renders ahead
 * while the page is idle. Messages in view render whatever it takes. */
const FRAME_BUDGET_MS = 4;
/** Messages next to those in the page, each way, rendered ahead (out of the page) while the page is idle. */
const AHEAD = 16;
/** Idle time left under which no message is rendered ahead (one takes a few milliseconds). */
const IDLE_MIN_MS = 2;
/** The scroll position is saved once scrolling pauses this long (saving is a message to VS Code). */
const SAVE_DELAY_MS = 150;

export interface MessageListHost {
  post(message: WebviewToHost): void;
  /** What a reply's action (a tool approval, Retry) needs besides the message. */
  conversationId(): string;
  focusModelPicker(): void;
  /** Where the list was, for the page to come back there when VS Code loads it again (undefined: at the bottom). */
  saveAnchor(anchor: ScrollAnchor | undefined): void;
}

/**
 * The messages of the conversation shown, in `#messages`: only those in view and a margin around them are in the page
 * (messageWindow.ts says which); a spacer above and one below stand for the others. Scrolling renders the messages
 * it reaches, measures those it leaves and drops them from the page (their views are kept, rendered, for the way back).
 * A long conversation thus opens with its last screen, and scrolling through it costs the same at any length.
 *
 * The list follows the bottom while a reply streams unless the user scrolled up. The message with a text selection
 * stays in the page; one that had the focus gives it to the list when it leaves. Copying a selection that spans
 * messages not in the page copies their text.
 */
export class MessageListView {
  private readonly views = new Map<string, MessageViewInstance>();
  /** The message each view was last brought in line with (a view out of the page is updated when it comes back). */
  private readonly viewData = new WeakMap<MessageViewInstance, MessageView>();
  private messages: MessageView[] = [];
  private indexOf = new Map<string, number>();
  private conversationId: string | undefined;
  private busy = false;
  private lastAssistantId: string | undefined;
  /** The messages in the page. */
  private range: IndexRange = { start: 0, end: 0 };
  /** Slot heights (article and gap) measured at `measuredWidth`, by message id. */
  private measured = new Map<string, number>();
  private estimates = new WeakMap<MessageView, number>();
  private measuredWidth = -1;
  private gap = 0;
  private paddingTop = 0;
  private readonly above = spacer();
  private readonly below = spacer();
  private empty: HTMLElement | undefined;
  private following = true;
  /** Where to bring the list once the conversation it belongs to shows (the page loaded again). */
  private restore: ScrollAnchor | undefined;
  /** A message to keep in place while the rendering around it settles (the restored position). */
  private pinnedAnchor: ScrollAnchor | undefined;
  private savedAnchor = '';
  private saveTimer: ReturnType<typeof setTimeout> | undefined;
  private lastPass = 0;
  /** Where each slot begins, as last measured; `stale` once something may have changed a height. */
  private offsets: number[] | undefined;
  private stale = true;
  /** Tells when a message in the page changes its height (a reasoning unfolded, a reply growing). */
  private readonly sizes = new ResizeObserver(() => this.rendered());
  private nextFrame = false;
  private idleRequested = false;
  /** A pass is running, or messages render ahead: the views they render say they grew, which is known. */
  private passing = false;
  private readonly passJob = () => this.pass();
  private readonly scrolledJob = () => this.scrolled();

  constructor(
    private readonly list: HTMLElement,
    private readonly scheduler: FrameScheduler,
    private readonly host: MessageListHost,
    restore: ScrollAnchor | undefined,
  ) {
    this.restore = restore;
    // Reading the scroll position lays the page out: done in the next frame, after its rendering, not per event.
    list.addEventListener('scroll', () => this.scheduler.schedule(this.scrolledJob, this.scrolledJob), { passive: true });
    list.addEventListener('click', (event) => onMessageListClick(event, (intent) => this.host.post(intent)));
    // On the document: a selection that starts above the list (Select All) copies from there.
    document.addEventListener('copy', (event) => this.copy(event));
    new ResizeObserver(() => this.rendered()).observe(list);
    addEventListener('pagehide', () => this.saveNow());
  }

  /** The view of a message, when it has one (messages far from the view may have none yet). */
  view(messageId: string): MessageViewInstance | undefined {
    return this.views.get(messageId);
  }

  /** Shows the conversation as the host sent it (a snapshot, an update, the end of a reply). */
  show(conversation: ConversationView): void {
    const switched = conversation.id !== this.conversationId;
    const previous = this.messages.slice(this.range.start, this.range.end).map((message) => message.id);
    if (switched) {
      for (const view of this.views.values()) view.dispose();
      this.views.clear();
      this.measured.clear();
      this.range = { start: 0, end: 0 };
      this.conversationId = conversation.id;
      this.following = true;
      this.pinnedAnchor = undefined;
      if (this.restore) {
        this.following = false;
        this.pinnedAnchor = this.restore;
      }
    }
    this.restore = undefined;
    this.stale = true;
    this.messages = conversation.messages;
    this.indexOf = new Map(conversation.messages.map((message, index) => [message.id, index]));
    this.busy = conversation.busy;
    this.lastAssistantId = [...conversation.messages].reverse().find((message) => message.role === 'assistant')?.id;

    // The messages in the page stay there (the host's update moves their indices), with any that came between them.
    const kept = previous.map((id) => this.indexOf.get(id)).filter((index): index is number => index !== undefined);
    this.range = kept.length ? { start: Math.min(...kept), end: Math.max(...kept) + 1 } : { start: 0, end: 0 };
    for (const [id, view] of this.views) {
      if (this.indexOf.has(id)) continue;
      view.dispose();
      this.views.delete(id);
      this.measured.delete(id);
    }
    for (let index = this.range.start; index < this.range.end; index++) this.render(index);
    // The reply that may stream gets a view wherever it is: its deltas go to the view.
    const last = this.messages.length - 1;
    if (last >= 0 && (last < this.range.start || last >= this.range.end)) this.render(last);
    this.place();
    this.pass();
  }

  /** A reply that starts brings the list back to the bottom to follow it. */
  follow(): void {
    this.following = true;
    this.pinnedAnchor = undefined;
    this.rendered();
  }

  /** Something in a message changed its height: the list follows the bottom, or settles around the view. */
  rendered(): void {
    this.stale = true;
    if (!this.passing) this.scheduler.schedule(this, this.passJob);
  }

  private scrolled(): void {
    if (!this.pinnedAnchor) this.following = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < FOLLOW_THRESHOLD;
    this.pass();
  }

  /** The view of message `index`, made or brought in line with the host's copy of the message. */
  private render(index: number): MessageViewInstance {
    const message = this.messages[index];
    let view = this.views.get(message.id);
    if (!view || view instanceof AssistantMessageView !== (message.role === 'assistant')) {
      view?.dispose();
      view = message.role === 'assistant' ? new AssistantMessageView(message, this.messageHost()) : new UserMessageView(message, this.messageHost());
      this.views.set(message.id, view);
    }
    if (this.viewData.get(view) !== message) {
      this.viewData.set(view, message);
      const place = { isLast: message.id === this.lastAssistantId, busy: this.busy };
      if (view instanceof AssistantMessageView && message.role === 'assistant') view.update(message, place);
      else if (view instanceof UserMessageView && message.role === 'user') view.update(message, place);
    }
    return view;
  }

  private messageHost(): MessageHost {
    return {
      post: (intent) => this.host.post(intent),
      conversationId: () => this.host.conversationId(),
      rendered: () => this.rendered(),
      focusModelPicker: () => this.host.focusModelPicker(),
      scheduler: this.scheduler,
    };
  }

  /** Puts the page in line with `range`: the spacers around the articles, moving only what is out of place. */
  private place(): void {
    // No conversation yet (a page loaded again waits for the host's snapshot): nothing, not an empty chat's welcome.
    if (this.conversationId === undefined) return;
    if (this.messages.length === 0) {
      this.sizes.disconnect();
      this.empty ??= emptyState();
      this.list.replaceChildren(this.empty);
      return;
    }
    this.empty = undefined;
    const wanted: HTMLElement[] = [this.above];
    for (let index = this.range.start; index < this.range.end; index++) wanted.push(this.render(index).element);
    wanted.push(this.below);
    // Those leaving go first: what stays is then in order, and only what comes is inserted (a moved element would
    // lose the focus and be laid out again).
    const staying = new Set<Element>(wanted);
    for (const child of Array.from(this.list.children)) {
      if (staying.has(child)) continue;
      if (child.contains(document.activeElement)) this.list.focus({ preventScroll: true });
      this.sizes.unobserve(child);
      child.remove();
      this.stale = true;
    }
    let next = this.list.firstElementChild;
    for (const element of wanted) {
      if (element === next) {
        next = next.nextElementSibling;
        continue;
      }
      this.list.insertBefore(element, next);
      if (element !== this.above && element !== this.below) this.sizes.observe(element);
      this.stale = true;
    }
  }

  /**
   * Measures the messages in the page, renders those the view needs (all it shows at once, the margin while the
   * frame's budget lasts) and drops those far from it, keeping what the user looks at in place; again until the
   * page holds what the view needs, or the budget is spent (then again in the next frame).
   */
  private pass(): void {
    if (this.messages.length === 0) return this.place();
    this.passing = true;
    try {
      this.settle();
    } finally {
      this.passing = false;
    }
    if (this.pinnedAnchor) {
      const index = this.indexOf.get(this.pinnedAnchor.messageId);
      // Held in place until it is in the page with the messages around it; then the scroll position holds it.
      if (index === undefined || (index >= this.range.start && index < this.range.end)) this.pinnedAnchor = undefined;
    }
    this.saveSoon();
    this.renderAheadWhenIdle();
  }

  /**
   * Renders, out of the page, the messages next to those in it that have no view yet (or an old one): scrolling on
   * then only puts them in. Nearest first, while the page is idle.
   */
  private renderAheadWhenIdle(): void {
    if (this.idleRequested || this.aheadOf().length === 0) return;
    this.idleRequested = true;
    requestIdleCallback(
      (deadline) => {
        this.idleRequested = false;
        this.passing = true;
        try {
          // A page never idle (a long scroll on a busy machine) still gets one message a second.
          const ahead = this.aheadOf();
          for (const [position, index] of ahead.entries()) {
            if (deadline.didTimeout ? position > 0 : deadline.timeRemaining() < IDLE_MIN_MS) break;
            this.render(index);
          }
        } finally {
          this.passing = false;
        }
        this.renderAheadWhenIdle();
      },
      { timeout: 1_000 },
    );
  }

  /** The messages within `AHEAD` of the page, nearest first, above before below, whose view is missing or old. */
  private aheadOf(): number[] {
    const ahead: number[] = [];
    for (let step = 1; step <= AHEAD; step++) {
      for (const index of [this.range.start - step, this.range.end - 1 + step]) {
        const message = this.messages[index];
        if (!message || (index >= this.range.start && index < this.range.end)) continue;
        const view = this.views.get(message.id);
        if (!view || this.viewData.get(view) !== message) ahead.push(index);
      }
    }
    return ahead;
  }

  private settle(): void {
    const started = performance.now();
    for (let round = 0; round < ROUNDS; round++) {
      // A scroll alone changes no height: the frames of a scroll only look where the view is.
      if (this.stale || !this.offsets) this.offsets = slotOffsets(this.heights());
      this.stale = false;
      const offsets = this.offsets;
      this.setSpacers(offsets);
      if (this.following) this.list.scrollTop = this.list.scrollHeight;
      else if (this.pinnedAnchor) this.bringBack(this.pinnedAnchor, offsets);
      const top = this.list.scrollTop - this.paddingTop;
      const view = { top, bottom: top + this.list.clientHeight };
      const margin = Math.max(MIN_MARGIN, this.list.clientHeight);
      const target = planWindow({ current: this.range, offsets, view, margin, pinned: this.selectedRange() });
      if (target.start === this.range.start && target.end === this.range.end) break;
      const anchor = this.following ? undefined : this.anchorIn(view, target);
      const before = anchor?.getBoundingClientRect().top;
      const visible = rangeBetween(offsets, view.top, view.bottom);
      let start = Math.max(this.range.start, target.start);
      let end = Math.min(this.range.end, target.end);
      let spent = false;
      for (const step of renderOrder(this.range, target, visible)) {
        if (!step.required && performance.now() - started > FRAME_BUDGET_MS) {
          spent = true;
          break;
        }
        this.render(step.index);
        if (end <= start) {
          start = step.index;
          end = step.index + 1;
        } else {
          start = Math.min(start, step.index);
          end = Math.max(end, step.index + 1);
        }
      }
      this.range = end > start ? { start, end } : { start: target.start, end: target.start };
      this.setSpacers(offsets);
      this.place();
      if (this.following) this.list.scrollTop = this.list.scrollHeight;
      else if (anchor && before !== undefined && anchor.isConnected) this.list.scrollTop += anchor.getBoundingClientRect().top - before;
      if (spent) {
        this.passInNextFrame();
        break;
      }
    }
  }

  /** The rest of the margin when this frame's budget is spent (not in this frame, as the scheduler would). */
  private passInNextFrame(): void {
    if (this.nextFrame) return;
    this.nextFrame = true;
    requestAnimationFrame(() => {
      this.nextFrame = false;
      this.pass();
    });
  }

  /** The slot heights: measured for the messages in the page (now) and those seen before, estimated for the others. */
  private heights(): number[] {
    const width = this.list.clientWidth;
    if (width !== this.measuredWidth) {
      this.measuredWidth = width;
      this.measured.clear();
      this.estimates = new WeakMap();
      const style = getComputedStyle(this.list);
      this.paddingTop = parseFloat(style.paddingTop) || 0;
    }
    for (let index = this.range.start; index < this.range.end; index++) {
      const element = this.views.get(this.messages[index].id)?.element;
      if (!element?.isConnected) continue;
      if (!this.gap) this.gap = parseFloat(getComputedStyle(element).marginBottom) || 0;
      this.measured.set(this.messages[index].id, element.getBoundingClientRect().height + this.gap);
    }
    return this.messages.map((message) => {
      const measured = this.measured.get(message.id);
      if (measured !== undefined) return measured;
      let estimate = this.estimates.get(message);
      if (estimate === undefined) {
        estimate = estimateSlotHeight(message, width);
        this.estimates.set(message, estimate);
      }
      return estimate;
    });
  }

  private setSpacers(offsets: readonly number[]): void {
    const above = `${offsets[this.range.start]}px`;
    const below = `${offsets[offsets.length - 1] - offsets[this.range.end]}px`;
    if (this.above.style.height !== above) this.above.style.height = above;
    if (this.below.style.height !== below) this.below.style.height = below;
  }

  /** The first message in the page that is in view and stays: what the user looks at, kept in place. */
  private anchorIn(view: { top: number; bottom: number }, target: IndexRange): HTMLElement | undefined {
    const listTop = this.list.getBoundingClientRect().top;
    for (let index = Math.max(this.range.start, target.start); index < Math.min(this.range.end, target.end); index++) {
      const element = this.views.get(this.messages[index].id)?.element;
      if (!element) continue;
      const box = element.getBoundingClientRect();
      if (box.bottom - listTop > 0 && box.top - listTop < view.bottom - view.top) return element;
    }
    return undefined;
  }

  /** Scrolls so that the anchor's message is where it was (the page loaded again); none left: at the bottom. */
  private bringBack(anchor: ScrollAnchor, offsets: readonly number[]): void {
    const index = this.indexOf.get(anchor.messageId);
    if (index === undefined) {
      this.pinnedAnchor = undefined;
      this.following = true;
      this.list.scrollTop = this.list.scrollHeight;
      return;
    }
    const element = this.views.get(anchor.messageId)?.element;
    const top = element?.isConnected
      ? element.getBoundingClientRect().top - this.list.getBoundingClientRect().top + this.list.scrollTop - this.paddingTop
      : offsets[index];
    this.list.scrollTop = this.paddingTop + top + anchor.offset;
  }

  /** One timer for a whole scroll (setting one per frame costs more than the frame's own work). */
  private saveSoon(): void {
    // At the bottom nothing needs measuring: saved at once, so a page hidden right after a reply comes back there.
    if (this.following) return this.saveNow();
    this.lastPass = performance.now();
    this.saveTimer ??= setTimeout(this.saveWhenStill, SAVE_DELAY_MS);
  }

  private readonly saveWhenStill = () => {
    const still = performance.now() - this.lastPass;
    if (still < SAVE_DELAY_MS) this.saveTimer = setTimeout(this.saveWhenStill, SAVE_DELAY_MS - still);
    else this.saveNow();
  };

  /** The first message in view and how far its top is above the view's: saved, so a reload comes back there. */
  private saveNow(): void {
    clearTimeout(this.saveTimer);
    this.saveTimer = undefined;
    let anchor: ScrollAnchor | undefined;
    if (!this.following) {
      const listTop = this.list.getBoundingClientRect().top;
      for (let index = this.range.start; index < this.range.end; index++) {
        const message = this.messages[index];
        const box = this.views.get(message.id)?.element.getBoundingClientRect();
        if (box && box.bottom > listTop) {
          anchor = { messageId: message.id, offset: Math.round(listTop - box.top) };
          break;
        }
      }
    }
    const key = JSON.stringify(anchor ?? null);
    if (key === this.savedAnchor) return;
    this.savedAnchor = key;
    this.host.saveAnchor(anchor);
  }

  /** The messages a text selection in the list starts and ends in (they stay in the page while it lasts). */
  private selectedRange(): IndexRange | undefined {
    const selection = document.getSelection();
    if (!selection || selection.isCollapsed || selection.rangeCount === 0) return undefined;
    const range = selection.getRangeAt(0);
    const first = this.messageIndexOf(range.startContainer);
    const last = this.messageIndexOf(range.endContainer);
    if (first === undefined && last === undefined) return undefined;
    return { start: first ?? last ?? 0, end: (last ?? first ?? 0) + 1 };
  }

  private messageIndexOf(node: Node): number | undefined {
    const element = node instanceof Element ? node : node.parentElement;
    const article = element?.closest<HTMLElement>('article.message');
    if (!article || article.parentElement !== this.list) return undefined;
    const id = article.dataset.messageId;
    return id === undefined ? undefined : this.indexOf.get(id);
  }

  /** A selection over messages not in the page (Select All): their text is copied, not the spacers' nothing. */
  private copy(event: ClipboardEvent): void {
    const selection = document.getSelection();
    if (!selection || selection.isCollapsed || selection.rangeCount === 0 || !event.clipboardData) return;
    const range = selection.getRangeAt(0);
    if (!range.intersectsNode(this.list)) return;
    const spansAbove = this.range.start > 0 && range.intersectsNode(this.above);
    const spansBelow = this.range.end < this.messages.length && range.intersectsNode(this.below);
    if (!spansAbove && !spansBelow) return;
    const first = spansAbove ? 0 : (this.messageIndexOf(range.startContainer) ?? this.range.start);
    const last = spansBelow ? this.messages.length - 1 : (this.messageIndexOf(range.endContainer) ?? this.range.end - 1);
    event.clipboardData.setData('text/plain', copiedText(this.messages.slice(first, last + 1)));
    event.preventDefault();
  }
}

/** An empty block as tall as the messages it stands for; no part of the page a screen reader reads. */
function spacer(): HTMLElement {
  return el('div', { className: 'message-spacer', attrs: { 'aria-hidden': 'true' } });
}

/** The text of whole messages, as a copy of them gives it: each one's text, a blank line between them. */
export function copiedText(messages: readonly MessageView[]): string {
  return messages.map((message) => message.text).join('\n\n');
}
