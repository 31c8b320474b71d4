// Swagger UI under Hoglet's name: the page title, a small hedgehog mark as the top-bar logo and
// the favicon (in place of @fastify/swagger-ui's Fastify logo and Swagger's icons).
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';

export const API_TITLE = 'Hoglet API';

/** A hedgehog from the side: spiky back, pale face, a dark eye and nose (64 x 40). */
const HEDGEHOG = `
  <path fill="#b8895a" d="M6 32 L4 24 L10 22 L8 14 L15 15 L16 7 L22 11 L26 3 L30 10 L36 4 L38 12 L45 8 L44 16 L50 16 L46 32 Z"/>
  <path fill="#f3dfc1" d="M40 32 C40 22 46 17 52 18 C57 19 61 24 62 28 C62 31 58 33 52 33 L42 33 Z"/>
  <circle cx="52" cy="24" r="1.8" fill="#1d1d1d"/>
  <circle cx="62" cy="28.5" r="1.6" fill="#1d1d1d"/>
  <path stroke="#b8895a" stroke-width="2.5" stroke-linecap="round" d="M16 33 L16 37 M36 33 L36 37"/>`;

/** The favicon: the hedgehog alone. */
export const HOGLET_ICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 -12 64 64" width="64" height="64"><title>Hoglet</title>${HEDGEHOG}
</svg>
`;

/** The top-bar logo: the hedgehog and the name, light on Swagger UI's dark bar. */
export const HOGLET_LOGO_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 40" width="200" height="40"><title>Hoglet</title>${HEDGEHOG}
  <text x="72" y="30" fill="#ffffff" font-family="Helvetica, Arial, sans-serif" font-size="26" font-weight="bold">Hoglet</text>
</svg>
`;

/** The part of the registration options that brands the page. */
export const swaggerUiBranding: Pick<FastifySwaggerUiOptions, 'logo' | 'theme'> = {
  logo: { type: 'image/svg+xml', content: Buffer.from(HOGLET_LOGO_SVG) },
  theme: {
    title: API_TITLE,
    favicon: [{ filename: 'hoglet.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(HOGLET_ICON_SVG) }],
  },
};
