//! `POST /api/games/ID/undo`: takes back the person's last passing pick, while more are
//! to come. A seat's picks are taken one after another (R4.2, seat by seat), and nothing is
//! passed until every seat has picked, so between the first pick and the last no other
//! seat decides and nothing is shown: the game is replayed from its deals without the
//! last pick, and the bots (who did not move meanwhile) are left as they are.

use axum::http::StatusCode;

use super::games::Game;
use super::ApiError;
use yokai_septet::Match;
use yokai_septet::Phase;

/// Takes back the person's last pick of this round's passing (see the module docs).
pub fn undo_pick(g: &mut Game) -> Result<(), ApiError> {
    let m = g.as_match();
    let s = *m.state();
    let me = m
        .players()
        .and_then(|p| p.iter().position(Option::is_none))
        .ok_or_else(|| ApiError::conflict("this game has no person's seat: bots play it"))?;
    let picked = s.view(me).my_passes().count();
    if s.phase() != Phase::Pass || s.current_player() != Some(me) || picked == 0 {
        return Err(ApiError::conflict(
            "nothing to take back: a passing pick can be taken back until your last one \
             (once every pick is made the cards are passed)",
        ));
    }
    let rec = m.record();
    let mut actions = rec.actions();
    actions.pop();
    let mut replay = Match::with_deals(*s.config(), rec.deals()).map_err(|e| {
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("internal error (please report it): {e}"),
        )
    })?;
    for card in actions {
        replay.apply(card).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("internal error (please report it): {e}"),
            )
        })?;
    }
    replay.set_players(m.players().map(<[_]>::to_vec));
    *g.match_mut() = replay;
    Ok(())
}
