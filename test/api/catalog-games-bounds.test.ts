// GET /games: every bound and enum of the search parameters is refused with the parameter's name.
import { expect } from 'chai';
import { useTestApp } from '../helpers/test-app.js';

describe('GET /games: parameter bounds', () => {
  const app = useTestApp();

  const refusals: Array<[string, string]> = [
    ['page=101', 'page'],
    ['page=0', 'page'],
    [`q=${'a'.repeat(81)}`, 'q'],
    [`platforms=${Array.from({ length: 25 }, (_, i) => i + 1).join(',')}`, 'platforms'],
    ['platforms=abc', 'platforms'],
    ['types=99', 'types'],
    ['genresMode=some', 'genresMode'],
    ['release=soon', 'release'],
    ['period=yesterday', 'period'],
    ['yearFrom=1949', 'yearFrom'],
    ['yearTo=2101', 'yearTo'],
    ['yearFrom=2000&yearTo=1999', 'yearFrom'],
    ['demo=2', 'demo'],
    ['obscure=true', 'obscure'],
    ['language=en,pt,es,fr,de,it,ja,ko,zh', 'language'],
    ['audio=english', 'audio'],
    ['age=pegi-15', 'age'],
    ['age=bbfc-12', 'age'],
    ['role=owner', 'role'],
    ['rating=101', 'rating'],
    ['votes=-1', 'votes'],
    ['libraries=0', 'libraries'],
    ['status=released', 'status'],
    ['hoursMin=0', 'hoursMin'],
    ['hoursMax=501', 'hoursMax'],
    ['sort=best', 'sort'],
  ];
  for (const [query, field] of refusals) {
    it(`refuses ${query.length > 40 ? `${query.slice(0, 40)}...` : query} naming ${field}`, async () => {
      const res = await app.client.get(`/api/v1/games?${query}`);
      expect(res.status).to.equal(400);
      expect(res.body.error).to.include({ code: 'invalid_request', field });
    });
  }
});
