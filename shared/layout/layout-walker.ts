// The walk of the layout validator: one pass over a schema-2 document collecting issues with the spec's
// codes, counting blocks, elements and types for the totals checked at the end. Tolerates any JSON value.
import type { IssueList, Path } from './layout-issues.js';
import {
  BACKGROUND_FITS,
  BACKGROUND_POSITIONS,
  BLOCK_TYPES,
  CONTENT_BLOCK_TYPES,
  ELEMENT_TYPES,
  EMBEDDABLE_BLOCK_TYPES,
  IMAGE_REF_KINDS,
  LIMITS,
  PATTERNS,
  PAGE_DENSITIES,
  PAGE_WIDTHS,
  PHONE_MODES,
  SHAPES,
  TEXT_ALIGNS,
  TONES,
} from './layout-limits.js';

export type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
export class LayoutWalker {
  readonly ids = new Set<string>();
  blocks = 0;
  elements = 0;
  readonly perType = new Map<string, number>();

  constructor(readonly issues: IssueList) {}

  private shape(message: string, path: Path, type?: string): void {
    this.issues.add('shape', message, path, type);
  }

  private keys(value: Json, allowed: readonly string[], path: Path): void {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) this.shape(`"${key}" is not a key of this part.`, [...path, key]);
    }
  }

  private oneOf(value: unknown, allowed: readonly string[], path: Path, what: string): void {
    if (!allowed.includes(value as string)) this.shape(`${what} must be one of: ${allowed.join(', ')}.`, path);
  }

  private range(value: unknown, min: number, max: number, path: Path, what: string): void {
    if (!isNumber(value) || value < min || value > max)
      this.shape(`${what} must be a number from ${min} to ${max}.`, path);
  }

  private id(value: unknown, path: Path): void {
    if (typeof value !== 'string' || !PATTERNS.id.test(value)) {
      this.shape('id must be 1 to 64 letters, digits, "-" or "_".', path);
      return;
    }
    if (this.ids.has(value)) this.issues.add('duplicate_id', `The id "${value}" is used more than once.`, path);
    this.ids.add(value);
  }

  document(doc: Json): void {
    this.keys(doc, ['schema', 'page', 'sections'], []);
    if (!isObject(doc.page)) this.shape('page must be an object.', ['page']);
    else {
      this.keys(doc.page, ['width', 'density', 'background'], ['page']);
      this.oneOf(doc.page.width, PAGE_WIDTHS, ['page', 'width'], 'width');
      this.oneOf(doc.page.density, PAGE_DENSITIES, ['page', 'density'], 'density');
      this.background(doc.page.background, ['page', 'background']);
    }
    if (!Array.isArray(doc.sections)) {
      this.shape('sections must be a list.', ['sections']);
      return;
    }
    if (doc.sections.length < LIMITS.sections.min || doc.sections.length > LIMITS.sections.max) {
      this.shape(`A layout has ${LIMITS.sections.min} to ${LIMITS.sections.max} sections.`, ['sections']);
    }
    doc.sections.slice(0, LIMITS.sections.max).forEach((section, index) => this.section(section, ['sections', index]));
  }

  private section(section: unknown, path: Path): void {
    if (!isObject(section)) return this.shape('A section must be an object.', path);
    this.id(section.id, [...path, 'id']);
    this.background(section.background, [...path, 'background']);
    if (section.kind === 'flow') this.flow(section, path);
    else if (section.kind === 'canvas') this.canvas(section, path);
    else this.shape('kind must be "flow" or "canvas".', [...path, 'kind']);
  }

  private flow(section: Json, path: Path): void {
    this.keys(section, ['id', 'kind', 'background', 'columns'], path);
    const columns = section.columns;
    if (
      !Array.isArray(columns) ||
      columns.length < LIMITS.columnsPerFlow.min ||
      columns.length > LIMITS.columnsPerFlow.max
    ) {
      return this.shape(`A flow section has ${LIMITS.columnsPerFlow.min} to ${LIMITS.columnsPerFlow.max} columns.`, [
        ...path,
        'columns',
      ]);
    }
    let spans = 0;
    columns.forEach((column, index) => {
      const at = [...path, 'columns', index];
      if (!isObject(column)) return this.shape('A column must be an object.', at);
      this.keys(column, ['span', 'blocks'], at);
      if (
        !Number.isInteger(column.span) ||
        (column.span as number) < 1 ||
        (column.span as number) > LIMITS.gridColumns
      ) {
        this.shape(`span must be an integer from 1 to ${LIMITS.gridColumns}.`, [...at, 'span']);
      } else spans += column.span as number;
      if (!Array.isArray(column.blocks)) return this.shape('blocks must be a list.', [...at, 'blocks']);
      if (column.blocks.length > LIMITS.blocksPerColumn) {
        this.issues.add('too_many_blocks', `A column holds at most ${LIMITS.blocksPerColumn} blocks.`, [
          ...at,
          'blocks',
        ]);
      }
      column.blocks.forEach((block, blockIndex) => this.block(block, [...at, 'blocks', blockIndex], BLOCK_TYPES));
    });
    if (spans !== LIMITS.gridColumns && columns.every((c) => isObject(c) && Number.isInteger(c.span))) {
      this.issues.add('spans', `Column spans must add up to ${LIMITS.gridColumns}.`, [...path, 'columns']);
    }
  }

  private canvas(section: Json, path: Path): void {
    this.keys(section, ['id', 'kind', 'background', 'aspect', 'phone', 'elements'], path);
    this.range(section.aspect, LIMITS.aspect.min, LIMITS.aspect.max, [...path, 'aspect'], 'aspect');
    this.oneOf(section.phone, PHONE_MODES, [...path, 'phone'], 'phone');
    if (!Array.isArray(section.elements)) return this.shape('elements must be a list.', [...path, 'elements']);
    if (section.elements.length > LIMITS.elementsPerCanvas) {
      this.issues.add('too_many_elements', `A canvas holds at most ${LIMITS.elementsPerCanvas} elements.`, [
        ...path,
        'elements',
      ]);
    }
    const aspect = isNumber(section.aspect) ? section.aspect : LIMITS.aspect.max;
    section.elements.forEach((element, index) => this.element(element, [...path, 'elements', index], aspect));
  }

  private visibility(value: unknown, path: Path): boolean[] {
    if (!isObject(value)) {
      this.shape('visibility must be { mobile, tablet, desktop } of true or false.', path);
      return [];
    }
    this.keys(value, ['mobile', 'tablet', 'desktop'], path);
    return (['mobile', 'tablet', 'desktop'] as const).map((device) => {
      if (typeof value[device] !== 'boolean') this.shape(`${device} must be true or false.`, [...path, device]);
      return value[device] === true;
    });
  }

  private block(block: unknown, path: Path, allowedTypes: readonly string[]): void {
    if (!isObject(block)) return this.shape('A block must be an object.', path);
    this.keys(block, ['id', 'type', 'visibility', 'style', 'config'], path);
    this.id(block.id, [...path, 'id']);
    const type = block.type as string;
    if (!allowedTypes.includes(type)) {
      return this.shape(
        allowedTypes === BLOCK_TYPES
          ? `"${String(type)}" is not a block type.`
          : `A canvas embeds only ${allowedTypes.join(', ')} blocks.`,
        [...path, 'type'],
        typeof type === 'string' ? type : undefined,
      );
    }
    this.blocks += 1;
    this.perType.set(type, (this.perType.get(type) ?? 0) + 1);
    const visible = this.visibility(block.visibility, [...path, 'visibility']);
    if (type === 'identity' && visible.length === 3 && visible.includes(false)) {
      this.issues.add(
        'required_hidden',
        'The identity block is shown on every device.',
        [...path, 'visibility'],
        'identity',
      );
    }
    if (block.style !== undefined) {
      if (!isObject(block.style)) this.shape('style must be an object.', [...path, 'style']);
      else {
        this.keys(block.style, ['background'], [...path, 'style']);
        this.background(block.style.background, [...path, 'style', 'background']);
      }
    }
    this.blockConfig(type, block.config, [...path, 'config']);
  }

  private blockConfig(type: string, config: unknown, path: Path): void {
    if (!isObject(config)) return this.shape('config must be an object.', path, type);
    if (type === 'image') {
      this.keys(config, ['source', 'caption', 'fit'], path);
      this.imageRef(config.source, [...path, 'source']);
      if (config.caption !== undefined) this.plainText(config.caption, [...path, 'caption'], 200);
      if (config.fit !== undefined) this.oneOf(config.fit, BACKGROUND_FITS, [...path, 'fit'], 'fit');
      return;
    }
    if (type === 'text' || type === 'heading') {
      this.keys(config, ['text', 'level', 'align'], path);
      this.plainText(config.text, [...path, 'text'], LIMITS.textLength);
      if (config.level !== undefined && ![1, 2, 3].includes(config.level as number))
        this.shape('level must be 1, 2 or 3.', [...path, 'level']);
      if (config.align !== undefined) this.oneOf(config.align, TEXT_ALIGNS, [...path, 'align'], 'align');
      return;
    }
    this.options(config, path, 0);
  }

  /** Options of the other blocks: plain values and references, checked for markup and URLs. */
  private options(value: unknown, path: Path, depth: number): void {
    if (depth > LIMITS.configDepth) return this.shape('config is nested too deeply.', path);
    if (typeof value === 'string') {
      if (PATTERNS.markup.test(value) || PATTERNS.url_like.test(value))
        this.shape('config holds options and references, never markup or URLs.', path);
      return;
    }
    if (value === null || typeof value === 'boolean' || isNumber(value)) return;
    if (Array.isArray(value)) return value.forEach((item, index) => this.options(item, [...path, index], depth + 1));
    if (isObject(value)) {
      for (const [key, item] of Object.entries(value)) this.options(item, [...path, key], depth + 1);
      return;
    }
    this.shape('config holds only plain values.', path);
  }

  private plainText(value: unknown, path: Path, max: number): void {
    if (typeof value !== 'string' || value.length > max)
      return this.shape(`text must be a string of at most ${max} characters.`, path);
    if (PATTERNS.markup.test(value)) this.shape('Text is plain: no markup.', path);
  }

  private element(element: unknown, path: Path, aspect: number): void {
    if (!isObject(element)) return this.shape('An element must be an object.', path);
    this.keys(element, ['id', 'type', 'box', 'rotation', 'opacity', 'locked', 'visibility', 'config'], path);
    this.id(element.id, [...path, 'id']);
    const type = element.type as string;
    if (!(ELEMENT_TYPES as readonly string[]).includes(type)) {
      return this.shape(
        `"${String(type)}" is not an element type.`,
        [...path, 'type'],
        typeof type === 'string' ? type : undefined,
      );
    }
    this.elements += 1;
    this.box(element.box, [...path, 'box'], aspect);
    if (element.rotation !== undefined) this.range(element.rotation, -360, 360, [...path, 'rotation'], 'rotation');
    if (element.opacity !== undefined) this.range(element.opacity, 0, 1, [...path, 'opacity'], 'opacity');
    if (element.locked !== undefined && typeof element.locked !== 'boolean')
      this.shape('locked must be true or false.', [...path, 'locked']);
    this.visibility(element.visibility, [...path, 'visibility']);
    const config = element.config;
    const at = [...path, 'config'];
    if (!isObject(config)) return this.shape('config must be an object.', at, type);
    if (type === 'text') {
      this.keys(config, ['text', 'size', 'align'], at);
      this.plainText(config.text, [...at, 'text'], LIMITS.textLength);
      this.range(config.size, 0.001, 1, [...at, 'size'], 'size');
      if (config.align !== undefined) this.oneOf(config.align, TEXT_ALIGNS, [...at, 'align'], 'align');
    } else if (type === 'shape') {
      this.keys(config, ['shape', 'fill', 'stroke', 'strokeWidth', 'thickness'], at);
      this.oneOf(config.shape, SHAPES, [...at, 'shape'], 'shape');
      for (const key of ['fill', 'stroke'] as const) {
        const colour = config[key];
        if (colour !== undefined && colour !== null && (typeof colour !== 'string' || !PATTERNS.colour.test(colour))) {
          this.shape(`${key} must be #rrggbb or null.`, [...at, key]);
        }
      }
      if (config.strokeWidth !== undefined)
        this.range(config.strokeWidth, 0, 100, [...at, 'strokeWidth'], 'strokeWidth');
      if (config.thickness !== undefined) {
        if (config.shape !== 'line') this.shape('thickness is for lines only.', [...at, 'thickness']);
        else
          this.range(
            config.thickness,
            LIMITS.lineThickness.min,
            LIMITS.lineThickness.max,
            [...at, 'thickness'],
            'thickness',
          );
      }
    } else if (type === 'image') {
      this.keys(config, ['source'], at);
      this.imageRef(config.source, [...at, 'source']);
    } else {
      this.keys(config, ['block'], at);
      if (!isObject(config.block)) return this.shape('block must be { type, config }.', [...at, 'block']);
      const embedded = config.block;
      this.keys(embedded, ['type', 'config'], [...at, 'block']);
      if (!EMBEDDABLE_BLOCK_TYPES.includes(embedded.type as never)) {
        return this.shape(
          `A canvas embeds only ${EMBEDDABLE_BLOCK_TYPES.join(', ')} blocks.`,
          [...at, 'block', 'type'],
          String(embedded.type),
        );
      }
      this.blocks += 1;
      this.perType.set(embedded.type as string, (this.perType.get(embedded.type as string) ?? 0) + 1);
      this.blockConfig(embedded.type as string, embedded.config, [...at, 'block', 'config']);
    }
  }

  private box(box: unknown, path: Path, aspect: number): void {
    if (!isObject(box) || !['x', 'y', 'w', 'h'].every((key) => isNumber(box[key]))) {
      return this.shape('box must be { x, y, w, h } of numbers.', path);
    }
    this.keys(box, ['x', 'y', 'w', 'h'], path);
    const { x, y, w, h } = box as { x: number; y: number; w: number; h: number };
    const epsilon = 1e-9;
    if (w < LIMITS.minBoxSide || h < LIMITS.minBoxSide) {
      this.issues.add('out_of_bounds', `w and h are at least ${LIMITS.minBoxSide} of the area width.`, path);
    } else if (x < 0 || y < 0 || x + w > 1 + epsilon || y + h > aspect + epsilon) {
      this.issues.add('out_of_bounds', 'The box must lie inside the area.', path);
    }
  }

  private background(value: unknown, path: Path): void {
    if (value === undefined || value === null) return;
    if (!isObject(value)) return this.shape('background must be an object or null.', path);
    this.keys(value, ['media', 'fit', 'position', 'dim', 'tone'], path);
    if (value.media !== undefined && value.media !== null) this.imageRef(value.media, [...path, 'media']);
    if (value.fit !== undefined) this.oneOf(value.fit, BACKGROUND_FITS, [...path, 'fit'], 'fit');
    if (value.position !== undefined)
      this.oneOf(value.position, BACKGROUND_POSITIONS, [...path, 'position'], 'position');
    if (value.dim !== undefined) this.range(value.dim, LIMITS.dim.min, LIMITS.dim.max, [...path, 'dim'], 'dim');
    if (value.tone !== undefined) this.oneOf(value.tone, TONES, [...path, 'tone'], 'tone');
  }

  /** `{kind: media, id}`, `{kind: screenshot, id}` or `{kind: cover, slug}`; never a URL. */
  private imageRef(value: unknown, path: Path): void {
    if (!isObject(value) || !(IMAGE_REF_KINDS as readonly string[]).includes(value.kind as string)) {
      return this.shape('An image is a reference { kind: media | screenshot | cover, ... }, never a URL.', path);
    }
    if (value.kind === 'cover') {
      this.keys(value, ['kind', 'slug'], path);
      if (typeof value.slug !== 'string' || value.slug.length > 150 || !PATTERNS.slug.test(value.slug))
        this.shape('slug must be a game slug.', [...path, 'slug']);
    } else {
      this.keys(value, ['kind', 'id'], path);
      if (typeof value.id !== 'string' || !PATTERNS.media_id.test(value.id))
        this.shape('id must be an image id.', [...path, 'id']);
    }
  }

  totals(): void {
    if (this.blocks > LIMITS.totalBlocks) {
      this.issues.add(
        'too_many_blocks',
        `A layout holds at most ${LIMITS.totalBlocks} blocks, embedded ones included.`,
        ['sections'],
      );
    }
    if (this.elements > LIMITS.totalElements) {
      this.issues.add('too_many_elements', `A layout holds at most ${LIMITS.totalElements} elements.`, ['sections']);
    }
    const identities = this.perType.get('identity') ?? 0;
    if (identities === 0)
      this.issues.add('required_missing', 'A layout has an identity block.', ['sections'], 'identity');
    if (identities > 1)
      this.issues.add('too_many_of_type', 'A layout has exactly one identity block.', ['sections'], 'identity');
    for (const type of CONTENT_BLOCK_TYPES) {
      if ((this.perType.get(type) ?? 0) > LIMITS.contentBlocksPerType) {
        this.issues.add(
          'too_many_of_type',
          `A layout holds at most ${LIMITS.contentBlocksPerType} ${type} blocks.`,
          ['sections'],
          type,
        );
      }
    }
  }
}
