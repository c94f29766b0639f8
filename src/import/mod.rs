//! `journal-market import PATH`: the archive's JSON format (docs/import-format.md). The whole file
//! is validated before anything is written, then written in one transaction; existing natural
//! keys are skipped, so importing the same file again changes nothing.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use journal_market_entity::{companies, entries, journals, sittings, stories};
use sea_orm::{
    ColumnTrait, DatabaseConnection, DbErr, EntityTrait, PaginatorTrait, QuerySelect,
    TryGetableMany,
};

use crate::db;
pub use records::{ImportFile, ImportSummary};
use validate::{Existing, MAX_PROBLEMS, validate};
use write::write_all;

/// The demo archive compiled into the binary; loaded into an empty database on first start.
pub const DEMO_ARCHIVE: &str = include_str!("../../data/demo/archive.json");

mod records;
mod validate;
mod write;

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("the file is not valid import JSON: {0}")]
    Parse(#[from] serde_json::Error),
    #[error("the file has {} invalid record(s), nothing was imported:\n  {}", .0.len(), .0.join("\n  "))]
    Invalid(Vec<String>),
    #[error("the database failed during the import, nothing was imported: {0}")]
    Database(#[from] DbErr),
}

/// One column of every row of the column's table.
async fn column_of<C, T>(db: &DatabaseConnection, column: C) -> Result<Vec<T>, DbErr>
where
    C: ColumnTrait,
    C::EntityName: EntityTrait,
    T: TryGetableMany,
{
    <C::EntityName as EntityTrait>::find()
        .select_only()
        .column(column)
        .into_tuple()
        .all(db)
        .await
}

async fn existing(db: &DatabaseConnection) -> Result<Existing, DbErr> {
    let tickers = companies::Entity::find().all(db).await?;
    let stories = stories::Entity::find().all(db).await?;
    let sittings: Vec<i64> = column_of(db, sittings::Column::Id).await?;
    let entries: Vec<String> = column_of(db, entries::Column::Accession).await?;
    let journals: Vec<Option<String>> = column_of(db, journals::Column::Slug).await?;
    Ok(Existing {
        tickers: tickers.into_iter().map(|c| c.ticker).collect(),
        stories: stories.into_iter().map(|s| (s.slug, s.ticker)).collect(),
        sittings: sittings.into_iter().collect(),
        entries: entries.into_iter().collect(),
        journals: journals.into_iter().flatten().collect(),
    })
}

/// True when the archive has no company yet (a fresh database).
pub async fn is_empty(db: &DatabaseConnection) -> Result<bool, DbErr> {
    Ok(companies::Entity::find().count(db).await? == 0)
}

/// The problems of a file against an empty archive, found without a database: the entry point
/// of the import fuzz target (`fuzz/`).
#[doc(hidden)]
pub fn problems(json: &str) -> Result<Vec<String>, serde_json::Error> {
    let file: ImportFile = serde_json::from_str(json)?;
    Ok(validate(&file, &Existing::default()))
}

/// Parses, validates and imports `json`. `progress` draws a bar on stderr.
pub async fn import_str(
    db: &DatabaseConnection,
    json: &str,
    progress: bool,
) -> Result<ImportSummary, ImportError> {
    let file: ImportFile = serde_json::from_str(json)?;
    let have = existing(db).await?;
    let mut problems = validate(&file, &have);
    if !problems.is_empty() {
        if problems.len() > MAX_PROBLEMS {
            let more = problems.len() - MAX_PROBLEMS;
            problems.truncate(MAX_PROBLEMS);
            problems.push(format!("… and {more} more"));
        }
        return Err(ImportError::Invalid(problems));
    }

    let total = file.companies.len()
        + file.stories.len()
        + file.sittings.len()
        + file.entries.len()
        + file.journals.len();
    let bar = ProgressBar::with_draw_target(
        Some(total as u64),
        if progress {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        },
    );
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} records {msg}") {
        bar.set_style(style);
    }

    let txn = db::begin_write(db).await?;
    let summary = write_all(&txn, &file, &have, &bar).await?;
    txn.commit().await?;
    bar.finish_and_clear();
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn minimal() -> ImportFile {
        serde_json::from_str(
            r###"{
            "companies": [{"ticker": "NVDA", "name": "NVIDIA"}],
            "entries": [{"id": "JM-NVDA-261120-01", "ticker": "NVDA", "date_of_record": "2026-11-20",
                "kind": "news", "title": "t", "summary": "s",
                "source": {"name": "Reuters", "url": "https://example.com/a", "says": "text"},
                "verified": true, "merged": false, "story": null, "story_seq": null,
                "sitting": null, "filed_at": "2026-11-20T06:00:00Z"}]
        }"###,
        )
        .unwrap()
    }

    #[test]
    fn a_valid_file_has_no_problems() {
        assert!(validate(&minimal(), &Existing::default()).is_empty());
    }

    #[test]
    fn names_the_bad_record() {
        let mut f = minimal();
        f.entries[0].kind = "tweet".into();
        f.entries[0].source.url = "ftp://x".into();
        let p = validate(&f, &Existing::default());
        assert_eq!(p.len(), 2, "{p:?}");
        assert!(p[0].starts_with("entries[0] (JM-NVDA-261120-01): kind"));
    }

    #[test]
    fn references_resolve_against_the_database() {
        let mut f = minimal();
        f.companies.clear();
        assert!(validate(&f, &Existing::default())[0].contains("unknown company NVDA"));
        let have = Existing {
            tickers: ["NVDA".to_string()].into(),
            ..Default::default()
        };
        assert!(validate(&f, &have).is_empty());
    }

    #[test]
    fn the_demo_archive_is_valid() {
        let f: ImportFile = serde_json::from_str(DEMO_ARCHIVE).unwrap();
        assert_eq!(validate(&f, &Existing::default()), Vec::<String>::new());
    }
}
