//! Logging set-up. A line written while a request's handler runs carries the request's id:
//! `request_id=…` after the fields in text, a top-level `"request_id"` in JSON.

use std::fmt;

use tracing::{Event, Subscriber};
use tracing_subscriber::EnvFilter;
use tracing_subscriber::field::RecordFields;
use tracing_subscriber::fmt::format::{DefaultFields, Writer};
use tracing_subscriber::fmt::{FmtContext, FormatEvent, FormatFields};
use tracing_subscriber::registry::LookupSpan;

use crate::config::LogSettings;
use crate::middleware::request_id;

/// Installs the global subscriber; `RUST_LOG` overrides the configured filter.
pub fn init(settings: &LogSettings) {
    let filter = EnvFilter::try_from_default_env()
        .or_else(|_| EnvFilter::try_new(&settings.filter))
        .unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(true);
    // A second init (tests) is harmless: the first subscriber stays.
    let _ = if settings.format == "json" {
        let json = builder.json();
        let format = JsonWithRequestId(tracing_subscriber::fmt::format().json());
        json.event_format(format).try_init()
    } else {
        builder.fmt_fields(TextWithRequestId::default()).try_init()
    };
}

/// Text: the event's fields as usual, then the request's id (written into the line itself, so
/// colours and layout stay the default format's).
#[derive(Default)]
pub struct TextWithRequestId(DefaultFields);

impl<'w> FormatFields<'w> for TextWithRequestId {
    fn format_fields<R: RecordFields>(&self, mut writer: Writer<'w>, fields: R) -> fmt::Result {
        self.0.format_fields(writer.by_ref(), fields)?;
        match request_id::current() {
            Some(id) => write!(writer, " request_id={}", id.to_str().unwrap_or("?")),
            None => Ok(()),
        }
    }
}

/// JSON: the default JSON line with `"request_id"` as its first key when a request runs.
pub struct JsonWithRequestId<F>(pub F);

impl<S, N, F> FormatEvent<S, N> for JsonWithRequestId<F>
where
    S: Subscriber + for<'a> LookupSpan<'a>,
    N: for<'a> FormatFields<'a> + 'static,
    F: FormatEvent<S, N>,
{
    fn format_event(
        &self,
        ctx: &FmtContext<'_, S, N>,
        mut writer: Writer<'_>,
        event: &Event<'_>,
    ) -> fmt::Result {
        let Some(id) = request_id::current() else {
            return self.0.format_event(ctx, writer, event);
        };
        let mut line = String::new();
        self.0.format_event(ctx, Writer::new(&mut line), event)?;
        // Ids are `[A-Za-z0-9._-]` (request_id::of): nothing to escape.
        match line.strip_prefix('{') {
            Some(rest) => write!(
                writer,
                "{{\"request_id\":\"{}\",{rest}",
                id.to_str().unwrap_or("?")
            ),
            None => writer.write_str(&line),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use actix_web::http::header::HeaderValue;
    use tracing_subscriber::fmt::MakeWriter;

    use super::*;

    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'a> MakeWriter<'a> for Buffer {
        type Writer = Buffer;
        fn make_writer(&'a self) -> Buffer {
            self.clone()
        }
    }

    impl Buffer {
        fn lines(&self) -> Vec<String> {
            let text = String::from_utf8(self.0.lock().unwrap().clone()).unwrap();
            text.lines().map(str::to_string).collect()
        }
    }

    /// Two lines: one inside a request (id `req-9`), one outside.
    fn log_two_lines() {
        request_id::sync_scope(HeaderValue::from_static("req-9"), || {
            tracing::info!(step = 2, "inside")
        });
        tracing::info!("outside");
    }

    #[test]
    fn json_lines_carry_the_request_id() {
        let out = Buffer::default();
        let subscriber = tracing_subscriber::fmt()
            .json()
            .event_format(JsonWithRequestId(tracing_subscriber::fmt::format().json()))
            .with_writer(out.clone())
            .finish();
        tracing::subscriber::with_default(subscriber, log_two_lines);
        let lines: Vec<serde_json::Value> = out
            .lines()
            .iter()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0]["request_id"], "req-9");
        assert_eq!(lines[0]["fields"]["message"], "inside");
        assert_eq!(lines[0]["fields"]["step"], 2);
        assert!(lines[1].get("request_id").is_none(), "{}", lines[1]);
        assert_eq!(lines[1]["fields"]["message"], "outside");
    }

    #[test]
    fn text_lines_carry_the_request_id() {
        let out = Buffer::default();
        let subscriber = tracing_subscriber::fmt()
            .fmt_fields(TextWithRequestId::default())
            .with_ansi(false)
            .with_writer(out.clone())
            .finish();
        tracing::subscriber::with_default(subscriber, log_two_lines);
        let lines = out.lines();
        assert_eq!(lines.len(), 2);
        assert!(
            lines[0].ends_with("inside step=2 request_id=req-9"),
            "{}",
            lines[0]
        );
        assert!(lines[1].ends_with("outside"), "{}", lines[1]);
    }
}
