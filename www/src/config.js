// @ts-check
// The page's settings from its URL (README "Embedding"): ?mode=embedded hides the open button
// and turns file drop off; features/embed.js reads the rest (?url=, ?allow=).

export const params = new URLSearchParams(location.search);
export const embedded = params.get('mode') === 'embedded';
