// The reference's shapes of captures as their author writes them (DECISIONS: Screenshots; What the feed
// and the things carry): the gallery's capture as its owner sees it, with what a likeable thing shows.
import { CONTENT_VISIBILITIES } from '../../../shared/content/content-fields.js';
import {
  answer,
  boolean,
  component,
  dateTime,
  integer,
  map,
  nullable,
  object,
  oneOf,
  string,
  uri,
} from '../response-schemas.js';

export const OwnCapture = component(
  'OwnCapture',
  object(
    {
      id: string(
        'The capture’s public id: what galleries, likes, comments and layouts (`{kind: screenshot, id}`) name it by.',
      ),
      game_id: nullable(integer('The catalog game; null only on captures written before uploads named one.')),
      description: string('Up to 500 characters; line breaks kept.'),
      contains_spoilers: boolean(),
      sensitive: boolean('Content screening found it explicit: shown behind a warning, never refused.'),
      visibility: oneOf(CONTENT_VISIBILITIES, 'Who may see it: everyone, the author’s followers, or the author.'),
      image_url: uri('The stored image: AVIF, metadata stripped, at most 3840 px wide.'),
      image_width: integer('Pixels.'),
      image_height: integer('Pixels.'),
      thumbnail_url: nullable(uri('WebP up to 640 px wide, or null: then use `image_url`.')),
      thumbnail_width: nullable(integer()),
      thumbnail_height: nullable(integer()),
      likes: integer(),
      comments: integer('Comments on the capture, but those moderation removed.'),
      awards: map(integer(), 'Awards given to it, `{award id: count}`; `{}` when none.'),
      removed: boolean('Removed by moderation: then shown to its author alone, who can delete it but not change it.'),
      created_at: dateTime(),
      updated_at: dateTime(),
    },
    { description: 'A capture as its author sees it.' },
  ),
);

export const CAPTURE_ANSWERS = {
  capture: answer(OwnCapture),
};
