// The resolutions and aspect ratios Promptreel offers for a video (Generate Video's review, the storyboard editor).
// Kept without imports: the storyboard editor's page protocol checks its messages against them.

export const RESOLUTIONS = ['480p', '720p', '1080p'] as const;
export const RATIOS = ['adaptive', '16:9', '9:16', '4:3', '3:4', '1:1', '21:9'] as const;
