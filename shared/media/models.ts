// What images are made of in the database: an upload waiting for its job (its staged original), a stored
// image, a storage object no row points at any more (queued for deletion), and a deleted capture's files
// kept until they are released (shared/screenshots).
import type { ModelObject } from 'objection';
import { BaseModel } from '../platform/db/base-model.js';
import type { CaptureFields, ImagePurpose } from './rows.js';

export class StagedUpload extends BaseModel {
  static override tableName = 'image_uploads';
  static override jsonAttributes = ['capture'];

  declare id: string;
  declare account_id: string;
  declare purpose: ImagePurpose;
  declare app_id: string | null;
  declare staging_key: string;
  /** A capture's fields, for the worker that records it (purpose `screenshot` only). */
  declare capture: CaptureFields | null;
  declare created_at: Date;
}

export class Image extends BaseModel {
  static override tableName = 'images';

  declare id: string;
  declare account_id: string;
  declare app_id: string | null;
  declare purpose: ImagePurpose;
  declare storage_key: string;
  declare content_type: string;
  declare width: number;
  declare height: number;
  declare bytes: number;
  declare animated: boolean;
  declare created_at: Date;
  /** When a layout last named it (unnamed layout images are removed after a while). */
  declare last_named_at: Date | null;
}

export class OrphanedMedia extends BaseModel {
  static override tableName = 'orphaned_media';
  static override idColumn = 'storage_key';

  declare storage_key: string;
  declare created_at: Date;
}

export class DeletedCaptureFile extends BaseModel {
  static override tableName = 'deleted_capture_files';
  static override idColumn = 'storage_key';

  declare storage_key: string;
  declare account_id: string;
  declare public_id: string;
  declare created_at: Date;
}

/** An upload as its row holds it. */
export type UploadRow = ModelObject<StagedUpload>;
/** A stored image as its row holds it. */
export type ImageRow = ModelObject<Image>;
