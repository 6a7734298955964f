// Every table that holds rows of an account, and what of it the export shows. A table owned by an
// account must be listed here, either exported (with the columns a person may read back) or left out
// with the reason; a test compares this list with the schema, so a new table cannot be forgotten.
// Secrets never leave: no hashes, tokens, TOTP secrets or one-time links.

export interface ExportedTable {
  /** The member of the export document. */
  key: string;
  table: string;
  /** The column naming the account. */
  owner: string;
  columns: string[];
  orderBy: string;
}

export const EXPORTED_TABLES: ExportedTable[] = [
  {
    key: 'profile',
    table: 'profiles',
    owner: 'account_id',
    columns: [
      'bio',
      'pronouns',
      'thought',
      'video_username',
      'photo_username',
      'microblog_username',
      'library_visibility',
      'created_at',
      'updated_at',
    ],
    orderBy: 'created_at',
  },
  {
    key: 'profile_layout',
    table: 'profile_layouts',
    owner: 'account_id',
    columns: ['draft', 'version', 'published', 'published_version', 'published_at', 'created_at', 'updated_at'],
    orderBy: 'created_at',
  },
  {
    key: 'drafts',
    table: 'drafts',
    owner: 'account_id',
    columns: ['id', 'kind', 'title', 'body', 'game', 'created_at', 'updated_at'],
    orderBy: 'created_at',
  },
  {
    key: 'usernames',
    table: 'usernames',
    owner: 'account_id',
    columns: ['name', 'kind', 'created_at', 'expires_at'],
    orderBy: 'created_at',
  },
  {
    // Sign-in sessions: `sessions` names play sessions, as the deletion categories do.
    key: 'sign_in_sessions',
    table: 'sessions',
    owner: 'account_id',
    columns: ['id', 'created_at', 'last_seen_at', 'signed_in_at', 'second_factor', 'user_agent', 'ip'],
    orderBy: 'created_at',
  },
  {
    key: 'apps',
    table: 'apps',
    owner: 'account_id',
    columns: ['id', 'name', 'description', 'scopes', 'created_at', 'updated_at'],
    orderBy: 'created_at',
  },
  {
    // The apps' subscriptions to events for integrations; the events themselves are a 30-day delivery log.
    key: 'app_event_subscriptions',
    table: 'app_event_subscriptions',
    owner: 'account_id',
    columns: ['app_id', 'url', 'types', 'state', 'disabled_reason', 'created_at', 'updated_at'],
    orderBy: 'created_at',
  },
  {
    key: 'api_keys',
    table: 'api_keys',
    owner: 'account_id',
    columns: ['id', 'app_id', 'name', 'last4', 'created_at', 'expires_at', 'revoked_at', 'last_used_at'],
    orderBy: 'created_at',
  },
  {
    key: 'infractions',
    table: 'infractions',
    owner: 'account_id',
    columns: ['id', 'reason', 'details', 'expires_at', 'created_at'],
    orderBy: 'created_at',
  },
  {
    // Like infractions: moderation's decision about the account, which the account may read back.
    key: 'publisher_block',
    table: 'publisher_blocks',
    owner: 'account_id',
    columns: ['created_at'],
    orderBy: 'created_at',
  },
  {
    // Which passkeys sign the account in, never their public keys or credential ids (DECISIONS: Passkeys).
    key: 'passkeys',
    table: 'passkeys',
    owner: 'account_id',
    columns: ['id', 'name', 'created_at', 'last_used_at', 'backed_up', 'device_type', 'transports'],
    orderBy: 'created_at',
  },
  {
    key: 'identities',
    table: 'identities',
    owner: 'account_id',
    columns: ['provider', 'provider_account_id', 'display_name', 'created_at'],
    orderBy: 'created_at',
  },
  {
    key: 'connections',
    table: 'connections',
    owner: 'account_id',
    columns: ['service', 'external_id', 'display_name', 'created_at'],
    orderBy: 'created_at',
  },
  {
    key: 'library',
    table: 'library_entries',
    owner: 'account_id',
    columns: [
      'game_id',
      'status',
      'playing',
      'backlog',
      'wishlist',
      'liked',
      'ignored',
      'rating',
      'platform_id',
      'finished_at',
      'created_at',
      'updated_at',
    ],
    orderBy: 'created_at',
  },
  {
    key: 'history',
    table: 'view_history',
    owner: 'account_id',
    columns: ['game_id', 'profile_id', 'viewed_at'],
    orderBy: 'viewed_at',
  },
  {
    key: 'copies',
    table: 'library_copies',
    owner: 'account_id',
    columns: ['id', 'game_id', 'platform_id', 'format', 'note', 'created_at', 'updated_at'],
    orderBy: 'created_at',
  },
  {
    // The journal's play sessions, what `DELETE /account/data?category=sessions` removes.
    key: 'sessions',
    table: 'play_sessions',
    owner: 'account_id',
    columns: [
      'id',
      'game_id',
      'started_at',
      'ended_at',
      'minutes',
      'note',
      'visibility',
      'removed_at',
      'created_at',
      'updated_at',
    ],
    orderBy: 'started_at',
  },
  {
    key: 'reviews',
    table: 'reviews',
    owner: 'account_id',
    columns: [
      'id',
      'game_id',
      'body',
      'rating',
      'contains_spoilers',
      'visibility',
      'removed_at',
      'created_at',
      'updated_at',
    ],
    orderBy: 'created_at',
  },
  {
    key: 'list_folders',
    table: 'list_folders',
    owner: 'account_id',
    // `id` is what a list's `folder_id` names.
    columns: ['id', 'public_id', 'name', 'created_at', 'updated_at'],
    orderBy: 'created_at',
  },
  {
    key: 'lists',
    table: 'lists',
    owner: 'account_id',
    // `id` is what comments and likes name a list by; `tiers`: a tier list's labels, in board order.
    columns: [
      'id',
      'public_id',
      'folder_id',
      'title',
      'description',
      'visibility',
      'mode',
      'tiers',
      'removed_at',
      'created_at',
      'updated_at',
    ],
    orderBy: 'created_at',
  },
  {
    // The lists' games, each with its place and tier: list_items has no owner column, so a view
    // (migration list_writes) names each place's account.
    key: 'list_items',
    table: 'list_items_exported',
    owner: 'account_id',
    columns: ['list_id', 'position', 'game_id', 'tier'],
    orderBy: 'list_id',
  },
  {
    key: 'journeys',
    table: 'journeys',
    owner: 'account_id',
    columns: [
      'id',
      'game_id',
      'title',
      'visibility',
      'started_at',
      'finished_at',
      'removed_at',
      'created_at',
      'updated_at',
    ],
    orderBy: 'created_at',
  },
  {
    key: 'screenshots',
    table: 'screenshots',
    owner: 'account_id',
    columns: [
      'public_id',
      'game_id',
      'description',
      'visibility',
      'contains_spoilers',
      'sensitive',
      'removed_at',
      'image_width',
      'image_height',
      'created_at',
    ],
    orderBy: 'created_at',
  },
  {
    key: 'comments',
    table: 'comments',
    owner: 'account_id',
    columns: ['id', 'target_kind', 'target_id', 'body', 'removed_at', 'created_at'],
    orderBy: 'created_at',
  },
  {
    // The thing's row id, as comments name theirs (a list's or screenshot's, not its public id).
    key: 'likes',
    table: 'likes',
    owner: 'account_id',
    columns: ['subject_kind', 'subject_id', 'created_at'],
    orderBy: 'created_at',
  },
  {
    // What the account was told; `actor_id` names who did it, as `following` names followees.
    key: 'notifications',
    table: 'notifications',
    owner: 'account_id',
    columns: ['id', 'kind', 'actor_id', 'subject_kind', 'subject_id', 'data', 'created_at', 'read_at'],
    orderBy: 'created_at',
  },
  {
    key: 'arcade_games',
    table: 'arcade_apps',
    owner: 'account_id',
    columns: ['app_id', 'slug', 'status', 'terms_version', 'created_at', 'removed_at'],
    orderBy: 'created_at',
  },
  {
    key: 'arcade_terms_accepted',
    table: 'arcade_terms_acceptances',
    owner: 'account_id',
    columns: ['version', 'text_sha256', 'accepted_at'],
    orderBy: 'accepted_at',
  },
  {
    key: 'arcade_grants',
    table: 'arcade_grants',
    owner: 'account_id',
    columns: ['app_id', 'nickname', 'scopes', 'granted_at', 'revoked_at'],
    orderBy: 'granted_at',
  },
  {
    key: 'arcade_player_ids',
    table: 'arcade_players',
    owner: 'account_id',
    columns: ['app_id', 'player_id', 'created_at'],
    orderBy: 'created_at',
  },
  {
    key: 'arcade_plays',
    table: 'arcade_instances',
    owner: 'account_id',
    columns: ['id', 'app_id', 'mode', 'release_number', 'url', 'created_at'],
    orderBy: 'created_at',
  },
  {
    key: 'minerals',
    table: 'mineral_balances',
    owner: 'account_id',
    columns: ['balance', 'level', 'lifetime', 'updated_at'],
    orderBy: 'updated_at',
  },
  {
    key: 'mineral_ledger',
    table: 'mineral_ledger',
    owner: 'account_id',
    columns: ['delta', 'reason', 'subject_kind', 'subject_id', 'award', 'note', 'created_at'],
    orderBy: 'id',
  },
  {
    // The thing by its row id, as `likes` names it.
    key: 'awards_given',
    table: 'awards',
    owner: 'giver_id',
    columns: ['award', 'subject_kind', 'subject_id', 'cost', 'created_at'],
    orderBy: 'created_at',
  },
  {
    key: 'verification',
    table: 'verifications',
    owner: 'account_id',
    columns: ['vouched_by', 'verified_at'],
    orderBy: 'verified_at',
  },
  {
    key: 'activity',
    table: 'activity_items',
    owner: 'account_id',
    columns: ['kind', 'subject_id', 'game_id', 'created_at'],
    orderBy: 'created_at',
  },
  {
    key: 'following',
    table: 'follows',
    owner: 'follower_id',
    columns: ['followee_id', 'created_at'],
    orderBy: 'created_at',
  },
  {
    key: 'follow_requests_sent',
    table: 'follow_requests',
    owner: 'requester_id',
    columns: ['target_id', 'created_at'],
    orderBy: 'created_at',
  },
  {
    key: 'blocks',
    table: 'blocks',
    owner: 'blocker_id',
    columns: ['blocked_id', 'created_at'],
    orderBy: 'created_at',
  },
  {
    key: 'images',
    table: 'images',
    owner: 'account_id',
    columns: ['id', 'purpose', 'app_id', 'content_type', 'width', 'height', 'bytes', 'animated', 'created_at'],
    orderBy: 'created_at',
  },
];

/** The columns of the account row itself that the export shows (never the password hash or TOTP secret). */
export const ACCOUNT_COLUMNS = [
  'id',
  'email',
  'email_verified_at',
  'username',
  'display_name',
  'role',
  'birth_date',
  'birth_date_confirmed_by',
  'two_factor_enabled_at',
  'username_changed_at',
  'record_history',
  'created_at',
  'updated_at',
];
