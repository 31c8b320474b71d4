// Membership levels and PostHog's rules for who may change whose (OrganizationMembership.validate_update).
import { PermissionDeniedError, ValidationError } from '../../errors.js';
import { MembershipLevel } from '../auth/principal.js';

const LEVELS: readonly number[] = [MembershipLevel.member, MembershipLevel.admin, MembershipLevel.owner];

/** DRF's ChoiceField answer for a level outside 1, 8 and 15. */
export function checkLevel(level: unknown, attr = 'level'): number {
  if (typeof level !== 'number' || !LEVELS.includes(level)) {
    throw new ValidationError(`"${String(level)}" is not a valid choice.`, attr, 'invalid_choice');
  }
  return level;
}

export interface LevelActors {
  requesterUserId: number;
  requesterLevel: number;
  targetUserId: number;
  targetLevel: number;
}

/** What PostHog checks before any change to a membership (a level change or a removal). */
export function assertMayEditMember(actors: LevelActors, newLevel?: number): void {
  const self = actors.requesterUserId === actors.targetUserId;
  if (newLevel !== undefined) {
    if (self) throw new PermissionDeniedError("You can't change your own access level.");
    if (newLevel === MembershipLevel.owner) {
      if (actors.requesterLevel !== MembershipLevel.owner) {
        throw new PermissionDeniedError("You can only make another member owner if you're this organization's owner.");
      }
    } else if (newLevel > actors.requesterLevel) {
      throw new PermissionDeniedError('You can only change access level of others to lower or equal to your current one.');
    }
  }
  if (!self) {
    if (actors.requesterLevel < MembershipLevel.admin) throw new PermissionDeniedError('You can only edit others if you are an admin.');
    if (actors.targetLevel > actors.requesterLevel) throw new PermissionDeniedError('You can only edit others with level lower or equal to you.');
  }
}
