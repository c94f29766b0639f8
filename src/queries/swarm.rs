//! The swarm's run log.

use journal_market_api::{LogLine, Sitting, SwarmRun};
use journal_market_entity::{sitting_logs, sittings};
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder};

use crate::domain::time::{date, ts};

/// The latest finished sitting and its log in time order.
pub async fn latest(db: &impl ConnectionTrait) -> Result<SwarmRun, DbErr> {
    let Some(s) = sittings::Entity::find()
        .filter(sittings::Column::FinishedAt.is_not_null())
        .order_by_desc(sittings::Column::FinishedAt)
        .order_by_desc(sittings::Column::Id)
        .one(db)
        .await?
    else {
        return Ok(SwarmRun {
            sitting: None,
            log: Vec::new(),
        });
    };
    let log = sitting_logs::Entity::find()
        .filter(sitting_logs::Column::SittingId.eq(s.id))
        .order_by_asc(sitting_logs::Column::Ts)
        .order_by_asc(sitting_logs::Column::Id)
        .all(db)
        .await?
        .into_iter()
        .map(|l| LogLine {
            ts: ts(&l.ts),
            desk: l.desk,
            level: l.level,
            message: l.message,
        })
        .collect();
    Ok(SwarmRun {
        sitting: Some(Sitting {
            id: s.id,
            date: date(&s.date),
            started_at: ts(&s.started_at),
            finished_at: s.finished_at.as_ref().map(ts).unwrap_or_default(),
            note: s.note,
            leads: i64::from(s.leads),
            filed: i64::from(s.filed),
            spend_usd: s.spend_usd,
        }),
        log,
    })
}
