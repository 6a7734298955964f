// The owner's profile, drafts, pictures and layout, and the layout document itself (spec: Profile, Profile
// layout document, Layout image; DECISIONS: Profile layout document; shared/layout/layout-walker.ts).
import {
  BACKGROUND_FITS,
  BACKGROUND_POSITIONS,
  BLOCK_TYPES,
  EMBEDDABLE_BLOCK_TYPES,
  LIMITS,
  PAGE_DENSITIES,
  PAGE_WIDTHS,
  PHONE_MODES,
  SHAPES,
  TEXT_ALIGNS,
  TONES,
} from '../../../shared/layout/layout-limits.js';
import {
  answer,
  anyObject,
  boolean,
  component,
  constant,
  dateTime,
  integer,
  list,
  map,
  nullable,
  number,
  object,
  oneOf,
  string,
  uri,
  uuid,
  type SchemaObject,
} from '../response-schemas.js';
import { Image, imageMembers, Page } from './pages-and-images.js';

const VISIBILITY = ['PUBLIC', 'FOLLOWERS', 'PRIVATE'];
const PICTURE_KINDS = ['AVATAR', 'BANNER'];

export const ImageRef = component('LayoutImageRef', {
  description: 'An image reference, never a URL: a layout image or a screenshot by id, a game’s cover by slug.',
  oneOf: [
    object({ kind: oneOf(['media', 'screenshot']), id: string() }),
    object({ kind: constant('cover'), slug: string('A game slug.') }),
  ],
});

const Background = nullable(
  object(
    {
      media: nullable(ImageRef),
      fit: oneOf(BACKGROUND_FITS),
      position: oneOf(BACKGROUND_POSITIONS),
      dim: number(`${LIMITS.dim.min} to ${LIMITS.dim.max}.`),
      tone: oneOf(TONES),
    },
    { optional: ['media', 'fit', 'position', 'dim', 'tone'], description: 'Null draws nothing.' },
  ),
);

const Visibility = object({ mobile: boolean(), tablet: boolean(), desktop: boolean() });

const Block = object(
  {
    id: string(),
    type: oneOf(BLOCK_TYPES),
    visibility: Visibility,
    style: object({ background: Background }, { optional: ['background'] }),
    config: anyObject('The block’s options and references (text, game slugs, screenshot ids), never markup or URLs.'),
  },
  { optional: ['style'] },
);

const elementMembers = {
  id: string(),
  box: object(
    { x: number(), y: number(), w: number(), h: number() },
    { description: 'Fractions of the area width, inside the area.' },
  ),
  rotation: number('-360 to 360.'),
  opacity: number('0 to 1.'),
  locked: boolean(),
  visibility: Visibility,
};
const element = (type: string, config: SchemaObject) =>
  object(
    { ...elementMembers, type: constant(type), config },
    { optional: ['rotation', 'opacity', 'locked'], description: `A ${type} element.` },
  );

const Element = {
  oneOf: [
    element('image', object({ source: ImageRef })),
    element(
      'text',
      object(
        { text: string(), size: number('Of the area width.'), align: oneOf(TEXT_ALIGNS) },
        { optional: ['align'] },
      ),
    ),
    element(
      'shape',
      object(
        {
          shape: oneOf(SHAPES),
          fill: nullable(string('#rrggbb.')),
          stroke: nullable(string('#rrggbb.')),
          strokeWidth: number(),
          thickness: number('Lines only, of the area width.'),
        },
        { optional: ['fill', 'stroke', 'strokeWidth', 'thickness'] },
      ),
    ),
    element(
      'block',
      object({ block: object({ type: oneOf(EMBEDDABLE_BLOCK_TYPES), config: anyObject('The block’s options.') }) }),
    ),
  ],
};

const FlowSection = object(
  {
    id: string(),
    kind: constant('flow'),
    background: Background,
    columns: list(object({ span: integer('Of the 12-column grid.'), blocks: list(Block) })),
  },
  { optional: ['background'], description: 'A flow section: 1 to 3 columns.' },
);

const CanvasSection = object(
  {
    id: string(),
    kind: constant('canvas'),
    background: Background,
    aspect: number('Height over width.'),
    phone: oneOf(PHONE_MODES),
    elements: list(Element, 'In drawing and reading order, the last on top.'),
  },
  { optional: ['background'], description: 'A canvas section.' },
);

export const LayoutDocument = component(
  'LayoutDocument',
  object(
    {
      schema: constant(2),
      page: object(
        { width: oneOf(PAGE_WIDTHS), density: oneOf(PAGE_DENSITIES), background: Background },
        { optional: ['background'] },
      ),
      sections: list({ oneOf: [FlowSection, CanvasSection] }),
    },
    { description: 'A profile layout document, schema 2.' },
  ),
);

export const LayoutMedia = map(
  object({ url: uri(), width: integer(), height: integer(), animated: boolean() }),
  'Layout image id to what drawing it needs.',
);

export const Profile = component(
  'Profile',
  object({
    username: nullable(string()),
    display_name: string('Empty when unset.'),
    bio: string(),
    pronouns: string(),
    thought: string(),
    video_username: string(),
    photo_username: string(),
    microblog_username: string(),
    library_visibility: oneOf(VISIBILITY),
    avatar_url: nullable(uri()),
    banner_url: nullable(uri()),
    updated_at: dateTime(),
    record_history: boolean(
      'Whether your session reads of games and profiles are recorded in your history (GET /history); true until changed.',
    ),
  }),
);

export const Draft = component(
  'Draft',
  object({
    id: uuid(),
    kind: oneOf(['review', 'list', 'journal', 'note']),
    title: string(),
    body: string(),
    game: nullable(string('A game slug.')),
    created_at: dateTime(),
    updated_at: dateTime(),
  }),
);

export const Picture = component('Picture', object({ ...imageMembers, kind: oneOf(PICTURE_KINDS) }));

export const PROFILE_ANSWERS = {
  profile: answer(Profile),
  drafts: answer(list(Draft, 'Most recently changed first.'), { page: Page }),
  draft: answer(Draft),
  pictures: answer(list(Picture, 'Newest first.'), { page: Page }),
  picture: answer(Picture),
  pictureCleared: answer(object({ kind: oneOf(PICTURE_KINDS), cleared: constant(true) })),
  layout: answer(
    object({
      draft: LayoutDocument,
      published: nullable(LayoutDocument),
      version: integer('0 when nothing is saved.'),
      published_version: nullable(integer()),
      published_at: nullable(dateTime()),
      updated_at: nullable(dateTime()),
      customized: boolean(),
      draft_incomplete: boolean('Parts of the stored draft this build cannot read were left out.'),
      media: LayoutMedia,
    }),
  ),
  layoutSaved: answer(object({ version: integer(), updated_at: dateTime() })),
  layoutPublished: answer(object({ version: integer(), published_at: dateTime() })),
  layoutReset: answer(object({ reset: constant(true) })),
  layoutImages: answer(list(object({ ...imageMembers, in_use: boolean() }), 'Newest first.'), {
    quota: object({ limit: integer(), bytes_limit: integer(), count: integer(), bytes: integer() }),
  }),
  layoutImage: answer(Image),
};
