//! Database migrations, portable between SQLite and PostgreSQL.

pub use sea_orm_migration::prelude::*;

mod build;

mod m20261122_000001_initial;
mod m20261123_000001_settlement;
mod m20261123_000002_publishing;
mod m20261123_000003_votes;
mod m20261123_000004_ledger;
mod m20261123_000005_signin;
mod m20261123_000006_ledger_order;
mod m20261124_000001_payment_ids;
mod m20261124_000002_sponsorships;
mod m20261125_000001_confirmations;
mod m20261126_000001_ledger_totals;
mod m20261127_000001_permit_signatures;

pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261122_000001_initial::Migration),
            Box::new(m20261123_000001_settlement::Migration),
            Box::new(m20261123_000002_publishing::Migration),
            Box::new(m20261123_000003_votes::Migration),
            Box::new(m20261123_000004_ledger::Migration),
            Box::new(m20261123_000005_signin::Migration),
            Box::new(m20261123_000006_ledger_order::Migration),
            Box::new(m20261124_000001_payment_ids::Migration),
            Box::new(m20261124_000002_sponsorships::Migration),
            Box::new(m20261125_000001_confirmations::Migration),
            Box::new(m20261126_000001_ledger_totals::Migration),
            Box::new(m20261127_000001_permit_signatures::Migration),
        ]
    }
}
