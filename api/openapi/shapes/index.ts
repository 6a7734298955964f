// Every area's shapes, imported for what they name: the document lists each named shape under
// `components.schemas`, whichever routes the router holds.
import './pages-and-images.js';
import './auth.js';
import './account.js';
import './app-events.js';
import './arcade.js';
import './arcade-players.js';
import './arcade-answers.js';
import './catalog.js';
import './social.js';
import './people.js';
import './profile.js';
import './moderation.js';
import './service.js';
import './library.js';
import './journal.js';
import './reviews.js';
import './lists.js';
import './likes-comments.js';
import './notifications.js';
import './screenshots.js';
import './history.js';
import './wallet.js';
