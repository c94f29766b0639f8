//! Starting the application for a test and talking to it.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use alloy::primitives::Address;
use journal_market::app::Application;
use journal_market::config::{Secret, Settings};
use journal_market_actors::clock::OffsetClock;
use journal_market_client::Client;
use reqwest::StatusCode;
use sea_orm::{ConnectionTrait, Database, DatabaseConnection};
use serde_json::Value;

/// Which database the suite runs on.
pub enum Backend {
    Sqlite,
    Postgres { admin_url: String },
}

pub fn backend() -> Backend {
    match std::env::var("JM_TEST_DB").as_deref() {
        Ok("postgres") => Backend::Postgres {
            admin_url: std::env::var("TEST_DATABASE_URL")
                .expect("JM_TEST_DB=postgres needs TEST_DATABASE_URL"),
        },
        _ => Backend::Sqlite,
    }
}

/// A database that exists for one test only.
pub struct TestDb {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
    pg: Option<(String, String)>,
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

impl TestDb {
    pub async fn new() -> TestDb {
        match backend() {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let url = format!("sqlite://{}/test.db", dir.path().display());
                TestDb {
                    url,
                    _dir: Some(dir),
                    pg: None,
                }
            }
            Backend::Postgres { admin_url } => {
                let name = format!(
                    "jm_test_{}_{}_{}",
                    std::process::id(),
                    COUNTER.fetch_add(1, Ordering::Relaxed),
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .unwrap()
                        .subsec_nanos()
                );
                let admin = Database::connect(&admin_url)
                    .await
                    .expect("connect to TEST_DATABASE_URL");
                admin
                    .execute_unprepared(&format!("CREATE DATABASE \"{name}\""))
                    .await
                    .expect("create test database");
                admin.close().await.ok();
                let base = admin_url
                    .rsplit_once('/')
                    .map(|(b, _)| b)
                    .unwrap_or(&admin_url);
                TestDb {
                    url: format!("{base}/{name}"),
                    _dir: None,
                    pg: Some((admin_url, name)),
                }
            }
        }
    }

    /// A connection that may create the SQLite file, for a test that migrates step by step
    /// with no app to have made it.
    pub async fn connect_creating(&self) -> DatabaseConnection {
        let url = match self.url.starts_with("sqlite:") {
            true => format!("{}?mode=rwc", self.url),
            false => self.url.clone(),
        };
        Database::connect(&url).await.unwrap()
    }

    pub async fn connect(&self) -> DatabaseConnection {
        Database::connect(&self.url)
            .await
            .expect("connect to the test database")
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some((admin_url, name)) = self.pg.take() {
            // Drop runs outside any runtime guarantee: use a thread with its own runtime.
            let _ = std::thread::spawn(move || {
                let rt = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap();
                rt.block_on(async {
                    if let Ok(admin) = Database::connect(&admin_url).await {
                        let _ = admin
                            .execute_unprepared(&format!(
                                "DROP DATABASE IF EXISTS \"{name}\" WITH (FORCE)"
                            ))
                            .await;
                        admin.close().await.ok();
                    }
                });
            })
            .join();
        }
    }
}

pub struct TestApp {
    pub base: String,
    pub client: Client,
    pub http: reqwest::Client,
    pub db: Arc<TestDb>,
    pub settings: Settings,
    pub clock: Arc<OffsetClock>,
    /// `http://host:port` of the metrics listener, when `metrics.listen` is set.
    pub metrics: Option<String>,
    handle: actix_web::dev::ServerHandle,
    /// The instance's own actix system (its own thread): stopping it ends every actor and
    /// background task of the instance, as the end of a process would.
    system: actix_web::rt::System,
    /// True once `run_until_stopped` has returned (after a clean stop's last steps).
    finished: tokio::sync::watch::Receiver<bool>,
}

impl Drop for TestApp {
    fn drop(&mut self) {
        self.system.stop();
    }
}

pub fn test_settings(db_url: &str) -> Settings {
    let mut s = Settings::load(None).expect("default settings");
    s.server.listen = "127.0.0.1:0".into();
    s.server.workers = 2;
    s.database.url = Secret::new(db_url);
    s.database.max_connections = Some(5);
    // Tests drive many requests from one address; the limits have their own tests (edge.rs).
    s.limits.enabled = false;
    s
}

impl TestApp {
    /// The server with the demo archive loaded.
    pub async fn spawn() -> TestApp {
        Self::spawn_with(|_| {}).await
    }

    /// The server on an empty database.
    pub async fn spawn_empty() -> TestApp {
        Self::spawn_with(|s| s.demo.load_on_first_start = false).await
    }

    /// The server on an empty database, its public reads never cached (tests that import
    /// data, then read it).
    pub async fn spawn_empty_uncached() -> TestApp {
        Self::spawn_with(|s| {
            s.demo.load_on_first_start = false;
            s.cache.public_ttl_ms = 0;
        })
        .await
    }

    pub async fn spawn_with(f: impl FnOnce(&mut Settings)) -> TestApp {
        let db = TestDb::new().await;
        let mut settings = test_settings(&db.url);
        f(&mut settings);
        Self::start(settings, db).await
    }

    pub async fn start(settings: Settings, db: TestDb) -> TestApp {
        Self::start_shared(settings, Arc::new(db)).await
    }

    /// An app on an existing test database (a restart with other settings).
    pub async fn start_on(settings: Settings, db: Arc<TestDb>) -> TestApp {
        Self::start_shared(settings, db).await
    }

    async fn start_shared(settings: Settings, db: Arc<TestDb>) -> TestApp {
        let clock = Arc::new(OffsetClock::default());
        let (started, ready) = tokio::sync::oneshot::channel();
        let (done, finished) = tokio::sync::watch::channel(false);
        let (s, c) = (settings.clone(), clock.clone());
        std::thread::spawn(move || {
            actix_web::rt::System::new().block_on(async move {
                let app = Application::build_with_clock(s, c)
                    .await
                    .expect("application builds");
                let running = (
                    app.port(),
                    app.metrics_addr(),
                    app.handle(),
                    actix_web::rt::System::current(),
                );
                let _ = started.send(running);
                let _ = app.run_until_stopped().await;
                let _ = done.send(true);
            })
        });
        let (port, metrics, handle, system) = ready.await.expect("the instance started");
        let base = format!("http://127.0.0.1:{port}/api");
        TestApp {
            client: Client::new(base.clone()).unwrap(),
            http: reqwest::Client::new(),
            base,
            db,
            settings,
            clock,
            metrics: metrics.map(|a| format!("http://{a}")),
            handle,
            system,
            finished,
        }
    }

    /// A second instance on the same database (a restart, or another server behind the
    /// load balancer).
    pub async fn sibling(&self) -> TestApp {
        let mut s = self.settings.clone();
        s.demo.load_on_first_start = false;
        Self::start_shared(s, self.db.clone()).await
    }

    /// Stops this instance: its server, then every actor and task it runs.
    pub async fn stop(&self) {
        self.handle.stop(true).await;
        // What the process does after its server stopped (giving the relayer key up).
        let mut finished = self.finished.clone();
        let _ = tokio::time::timeout(Duration::from_secs(10), finished.wait_for(|f| *f)).await;
        self.system.stop();
    }

    /// Ends this instance at once, mid-request, as a SIGKILL would.
    pub fn kill(&self) {
        self.system.stop();
    }

    /// GET a path under /api with a session cookie (`name=value`); the status and JSON body.
    pub async fn get_as(&self, path: &str, cookie: &str) -> (StatusCode, Value) {
        let resp = self
            .http
            .get(format!("{}{}", self.base, path))
            .header("cookie", cookie)
            .send()
            .await
            .expect("request");
        let status = resp.status();
        (status, resp.json().await.unwrap_or(Value::Null))
    }

    /// GET a path under /api with one request header; the answer as it came.
    pub async fn get_with_header(&self, path: &str, name: &str, value: &str) -> reqwest::Response {
        self.http
            .get(format!("{}{}", self.base, path))
            .header(name, value)
            .send()
            .await
            .expect("request")
    }

    /// GET a whole URL (another listener, a path outside /api); the answer as it came.
    pub async fn fetch(&self, url: impl reqwest::IntoUrl) -> reqwest::Response {
        self.http.get(url).send().await.expect("request")
    }

    /// GET a path under /api and return the status and the JSON body.
    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        let resp = self.fetch(format!("{}{}", self.base, path)).await;
        let status = resp.status();
        let text = resp.text().await.expect("body");
        let body = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("GET {path} answered {status} with non-JSON {text:?}: {e}"));
        (status, body)
    }

    /// Asserts an error answer: the status and a `{ "error": "<sentence>" }` body.
    pub async fn expect_error(&self, path: &str, status: StatusCode) -> String {
        let (got, body) = self.get(path).await;
        assert_eq!(got, status, "GET {path}: {body}");
        crate::shape::assert_error_body(&body);
        body["error"].as_str().unwrap().to_string()
    }

    /// Asserts the same error answer (see [`TestApp::expect_error`]) for each of `paths`.
    pub async fn expect_errors(&self, status: StatusCode, paths: &[&str]) {
        for path in paths {
            self.expect_error(path, status).await;
        }
    }
}

/// The wallet `c`'s session is for, if it has one (`GET /me`).
pub async fn session_address(c: &Client) -> Option<Address> {
    let me = c.me().await.unwrap();
    me.address.map(|a| a.parse().unwrap())
}

/// Sends a request and decodes its JSON answer, whatever the status.
pub async fn send_json(req: reqwest::RequestBuilder) -> Value {
    req.send().await.unwrap().json().await.unwrap()
}

/// One actor's row in a `GET /health/actors` answer, if it is listed.
pub fn find_actor<'a>(actors: &'a Value, name: &str) -> Option<&'a Value> {
    actors["actors"]
        .as_array()
        .and_then(|all| all.iter().find(|a| a["name"] == name))
}

/// One actor's row in a `GET /health/actors` answer; panics when it is not listed.
pub fn actor<'a>(actors: &'a Value, name: &str) -> &'a Value {
    find_actor(actors, name).unwrap_or_else(|| panic!("no {name} in {actors}"))
}

/// The seconds of a `Retry-After` header; panics when there is none.
pub fn retry_after(resp: &reqwest::Response) -> u64 {
    resp.headers()
        .get("retry-after")
        .expect("Retry-After")
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

/// Asserts a rate limit's answer: 429, `Retry-After` of 1 to 60 s and an error body; the
/// body's sentence.
pub async fn assert_429(resp: reqwest::Response) -> String {
    assert_eq!(resp.status(), StatusCode::TOO_MANY_REQUESTS);
    let retry = retry_after(&resp);
    assert!((1..=60).contains(&retry), "Retry-After {retry}");
    let body: Value = resp.json().await.unwrap();
    crate::shape::assert_error_body(&body);
    body["error"].as_str().unwrap().to_string()
}
