import { expect } from 'chai';
import { offsetPage, onePage, pageObject, pageParameter, pageWindow } from '../../shared/platform/paging/paging.js';
import { compileSchema } from '../../shared/platform/validation/ajv.js';
import { coerceParameters } from '../../shared/platform/validation/coerce.js';
import { describeError } from '../../shared/platform/validation/describe-error.js';

describe('paging', () => {
  describe('the page parameter', () => {
    const schema = { type: 'object', properties: { page: pageParameter() } };
    const catalogSchema = { type: 'object', properties: { page: pageParameter(100) } };
    const parse = (raw: Record<string, string>, s = schema) => {
      const validator = compileSchema(s);
      const value = coerceParameters(raw, s);
      if (!validator(value)) throw describeError(validator.errors![0], 'query');
      return value.page;
    };

    it('defaults to 1 and reads 1 to 1000', () => {
      expect(parse({})).to.equal(1);
      expect(parse({ page: '1' })).to.equal(1);
      expect(parse({ page: '1000' })).to.equal(1000);
    });

    for (const bad of ['0', '1001', '-1', 'x', '2.0', '']) {
      it(`refuses page=${JSON.stringify(bad)} with invalid_request naming page`, () => {
        expect(() => parse({ page: bad }))
          .to.throw()
          .that.satisfies((e: { body(): { error: Record<string, unknown> } }) => {
            expect(e.body().error).to.include({ code: 'invalid_request', field: 'page' });
            return true;
          });
      });
    }

    it('stops at a route bound such as the catalog page 100', () => {
      expect(parse({ page: '100' }, catalogSchema)).to.equal(100);
      expect(() => parse({ page: '101' }, catalogSchema)).to.throw(/from 1 to 100/);
    });
  });

  describe('the page object', () => {
    it('computes totals and has_more from the total, not the rows', () => {
      expect(pageObject(1, { size: 24 }, 50)).to.deep.equal({
        number: 1,
        size: 24,
        total_items: 50,
        total_pages: 3,
        has_more: true,
      });
      expect(pageObject(3, { size: 24 }, 50).has_more).to.equal(false);
      expect(pageObject(2, { size: 25 }, 50)).to.include({ total_pages: 2, has_more: false });
    });

    it('answers an empty collection with zero pages', () => {
      expect(pageObject(1, { size: 24 }, 0)).to.deep.equal({
        number: 1,
        size: 24,
        total_items: 0,
        total_pages: 0,
        has_more: false,
      });
    });

    it('counts only the pages that can be asked, and says has_more false on the last even when rows remain', () => {
      const page = pageObject(100, { size: 24, maxPage: 100 }, 10000);
      expect(page).to.include({ total_items: 10000, total_pages: 100, has_more: false });
      expect(pageObject(1, { size: 50 }, 60000)).to.include({ total_pages: 1000, has_more: true });
      expect(pageObject(99, { size: 24, maxPage: 100 }, 10000).has_more).to.equal(true);
    });

    it('turns a page number into a window', () => {
      expect(pageWindow(1, { size: 24 })).to.deep.equal({ limit: 24, offset: 0 });
      expect(pageWindow(3, { size: 48 })).to.deep.equal({ limit: 48, offset: 96 });
    });
  });

  describe('the page object of an offset window', () => {
    it('numbers the page the offset falls in, in pages of the limit', () => {
      expect(offsetPage(0, 10, 25, 10000)).to.deep.equal({
        number: 1,
        size: 10,
        total_items: 25,
        total_pages: 3,
        has_more: true,
      });
      expect(offsetPage(10, 10, 25, 10000)).to.include({ number: 2, has_more: true });
      // An offset between page starts is in the page that holds its first item.
      expect(offsetPage(19, 10, 25, 10000)).to.include({ number: 2, has_more: false });
      expect(offsetPage(20, 10, 25, 10000)).to.include({ number: 3, has_more: false });
      expect(offsetPage(0, 10, 0, 10000)).to.deep.equal({
        number: 1,
        size: 10,
        total_items: 0,
        total_pages: 0,
        has_more: false,
      });
    });

    it('says has_more false once the next offset would pass the last one a client may ask for', () => {
      expect(offsetPage(9990, 10, 50000, 10000).has_more).to.equal(true);
      expect(offsetPage(9995, 10, 50000, 10000).has_more).to.equal(false);
    });
  });

  describe('the page object of a collection answered whole', () => {
    it('is page 1 of 1 holding every item, and no page at all when empty', () => {
      expect(onePage(3)).to.deep.equal({ number: 1, size: 3, total_items: 3, total_pages: 1, has_more: false });
      expect(onePage(0)).to.deep.equal({ number: 1, size: 0, total_items: 0, total_pages: 0, has_more: false });
    });
  });
});
