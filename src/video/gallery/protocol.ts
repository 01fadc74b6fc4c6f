import * as z from 'zod/mini';

// The video gallery's page and its host (GalleryHost): what the host sends (snapshots of the task list as cards) and
// what the page may ask (checked here with zod; the page imports only the types).

/** What a card's buttons can do: the item commands of the Video Tasks tree. */
export const GALLERY_ACTIONS = ['open', 'download', 'reveal', 'regenerate', 'refresh', 'goToSource', 'track', 'copyPrompt', 'copyId', 'remove'] as const;
export type GalleryAction = (typeof GALLERY_ACTIONS)[number];

/** The state a card shows: a task's state, or `downloaded` for a completed one whose file is there. */
export type CardState = 'queued' | 'running' | 'completed' | 'downloaded' | 'failed' | 'stale' | 'unconfirmed';

export interface GalleryCard {
  id: string;
  state: CardState;
  /** `Running · 50%`, `Downloaded`, `Answer lost`. */
  stateLabel: string;
  /** The whole prompt, or a note when the task was tracked by id. */
  prompt: string;
  model: string;
  /** The requested duration, `5 s`. */
  duration?: string;
  /** `$0.40`, when a price was known. */
  price?: string;
  /** The creation time, as the user's locale writes it. */
  created: string;
  /** The downloaded file through the webview's resource origin, when it is there. */
  videoSrc?: string;
  fileName?: string;
  /** Why it failed, or what the last poll said. */
  note?: string;
  /** A task of another service: shown, not followed here. */
  elsewhere: boolean;
  actions: GalleryAction[];
}

export interface GalleryGroup {
  id: string;
  label: string;
  /** `2 running · 1 completed`. */
  summary: string;
  cards: GalleryCard[];
}

/** A card on its own, or the cards of one group of variants. */
export type GalleryEntry = { kind: 'card'; card: GalleryCard } | { kind: 'group'; group: GalleryGroup };

/** Host → page. */
export type HostToGallery = { type: 'snapshot'; entries: GalleryEntry[]; models: string[] };

/** Page → host: `ready` asks for a snapshot; `action` runs a card's button; `poster` says a card's first frame is shown. */
export const galleryToHostSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('action'), action: z.enum(GALLERY_ACTIONS), id: z.string().check(z.minLength(1), z.maxLength(500)) }),
  z.object({
    type: z.literal('poster'),
    id: z.string().check(z.minLength(1), z.maxLength(500)),
    width: z.int().check(z.gte(0)),
    height: z.int().check(z.gte(0)),
    error: z.optional(z.string().check(z.maxLength(500))),
  }),
]);
export type GalleryToHost = z.infer<typeof galleryToHostSchema>;
/** A card's first frame is shown (its video's size), or why it cannot be. */
export type PosterReport = Extract<GalleryToHost, { type: 'poster' }>;

/** The card states a filter shows (the page's filters). */
export type StateFilter = 'all' | 'running' | 'done' | 'failed' | 'other';

/** What the page keeps across reloads (`setState`): its filters and the cards picked for comparing. */
export interface GalleryPageState {
  state: StateFilter;
  model: string;
  selected: string[];
}
