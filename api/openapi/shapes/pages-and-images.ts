// Shapes every area uses: the page of a numbered collection, the envelopes, an image, a deletion's answer.
import {
  answer,
  boolean,
  component,
  dateTime,
  integer,
  list,
  object,
  string,
  uri,
  uuid,
  type SchemaObject,
} from '../response-schemas.js';

/** spec: Page object. */
export const Page = component(
  'Page',
  object(
    {
      number: integer('The page, from 1.'),
      size: integer('Items a page holds.'),
      total_items: integer('Items in the collection (the catalog may count only up to 2,500 while it reads its copy).'),
      total_pages: integer(
        'Pages a client may ask for: the items over `size`, rounded up, and never past the last page.',
      ),
      has_more: boolean('Whether a later page may be asked for: false on the last page a client may request.'),
    },
    { description: 'Where a numbered collection stands (`?page=`).' },
  ),
);

/** `{ data: [item], page }`. */
export const paged = (item: SchemaObject, more: Record<string, SchemaObject> = {}) =>
  answer(list(item), { page: Page, ...more });

/** `{ data: { id, deleted: true } }`. */
export const Deleted = component(
  'Deleted',
  object({ data: object({ id: string('The id of what was deleted.'), deleted: { const: true } }) }),
);

/** A stored picture as the image pipeline made it (layout images, avatars, banners). */
export const imageMembers = {
  id: uuid(),
  url: uri(),
  width: integer('Pixels.'),
  height: integer('Pixels.'),
  bytes: integer(),
  animated: boolean(),
  created_at: dateTime(),
};
export const Image = component('Image', object(imageMembers));
