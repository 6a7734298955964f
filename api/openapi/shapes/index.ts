// Every area's shapes, imported for what they name: the document lists each named shape under
// `components.schemas`, whichever routes the router holds.
import './common.js';
import './auth.js';
import './account.js';
import './arcade.js';
import './catalog.js';
import './social.js';
import './people.js';
import './profile.js';
import './moderation.js';
import './service.js';
