/** Query keys of the invitation feature (one prefix, so a settlement refresh can invalidate them all). */
export const inviteKeys = {
  all: ['invite'] as const,
  rules: ['invite', 'rules'] as const,
  code: ['invite', 'code'] as const,
  summary: ['invite', 'summary'] as const,
  invitees: (page: number) => ['invite', 'invitees', page] as const,
  rebates: (page: number) => ['invite', 'rebates', page] as const,
  ranking: (month: 'this' | 'last') => ['invite', 'ranking', month] as const,
  leaderboard: ['invite', 'leaderboard'] as const,
};
