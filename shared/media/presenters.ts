// What the API shows of images: pure functions of rows and a URL maker.
import type { StoredImage } from './rows.js';
import type { ImageRow } from './models.js';

export function presentImage(row: ImageRow, url: (key: string) => string): StoredImage {
  return {
    id: row.id,
    url: url(row.storage_key),
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    animated: row.animated,
    created_at: new Date(row.created_at).toISOString(),
  };
}
