export type VideoState = 'pending' | 'completed' | 'failed';

/** One model for every task shape the gateways send. */
export interface VideoTask {
  id: string;
  state: VideoState;
  /** The status string exactly as the service sent it (shown to the user; may be one we do not know). */
  status: string;
  /** 0..100 when the service reports it. */
  progress?: number;
  videoUrl?: string;
  error?: string;
  model?: string;
  /** Unix seconds. */
  createdAt?: number;
  /** The gateway's id of the request that created it (`X-Oneapi-Request-Id`), when it sends one: its key log entry carries it. */
  requestId?: string;
}

export interface VideoCreateRequest {
  model: string;
  prompt: string;
  /** Sent as a string whatever is given: gateways built on new-api refuse a JSON number. */
  seconds?: string | number;
  /** Content review; false turns it off. */
  moderator?: boolean;
  metadata?: {
    resolution?: string;
    ratio?: string;
    generate_audio?: boolean;
    watermark?: boolean;
    seed?: number;
  };
  /** The first frame (OpenAI's `input_reference`): the request goes as `multipart/form-data` with it as a file part. */
  inputReference?: VideoInputReference;
}

/** An image the video starts from, as its bytes (read by the caller: the API layer is handed no paths). */
export interface VideoInputReference {
  bytes: Uint8Array;
  /** The file name sent with the part, e.g. `frame.png`. */
  fileName: string;
  /** `image/png`, `image/jpeg` or `image/webp`. */
  contentType: string;
}
