//! The README's run command, twice: `journal-market devnet` keeps its chain (anvil's state
//! next to the devnet file) with its database, so the second start serves the first one's
//! journals, purchases and sessions without deploying or seeding again; a database that no
//! longer matches the saved chain, or `--fresh`, starts both over, said in one line.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use journal_market_chain::devnet_file::Devnet;

struct Run {
    child: Child,
    log: PathBuf,
    api: String,
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

impl Run {
    fn start(dir: &Path, db: &str, n: u32, ports: (u16, u16), extra: &[&str]) -> Run {
        let log = dir.join(format!("run{n}.log"));
        let out = std::fs::File::create(&log).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_journal-market"))
            .args(["devnet", "--anvil-port", &ports.0.to_string(), "--out"])
            .arg(dir.join("devnet.json"))
            .args(extra)
            .env("JM__SERVER__LISTEN", format!("127.0.0.1:{}", ports.1))
            .env("JM__DATABASE__URL", db)
            .env("JM__LOG__FORMAT", "json")
            .env("JM__LOG__FILTER", "info")
            .stderr(out.try_clone().unwrap())
            .stdout(out)
            .spawn()
            .unwrap();
        Run {
            child,
            log,
            api: format!("http://127.0.0.1:{}/api", ports.1),
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits until the log has a line with every one of `parts`.
    async fn wait_for(&mut self, parts: &[&str]) {
        let started = Instant::now();
        loop {
            if self
                .log()
                .lines()
                .any(|l| parts.iter().all(|p| l.contains(p)))
            {
                return;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("exited ({status}) before {parts:?}:\n{}", self.log());
            }
            assert!(
                started.elapsed() < Duration::from_secs(120),
                "no {parts:?} in:\n{}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Ctrl-C, and a clean exit.
    async fn stop(mut self) {
        let pid = self.child.id().to_string();
        Command::new("kill").args(["-INT", &pid]).status().unwrap();
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}:\n{}", self.log());
                return;
            }
            assert!(started.elapsed() < Duration::from_secs(30), "did not stop");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

async fn wait_ready(api: &str) {
    let started = Instant::now();
    while !reqwest::get(format!("{api}/config"))
        .await
        .ok()
        .map(|r| r.status().is_success())
        .unwrap_or(false)
    {
        assert!(started.elapsed() < Duration::from_secs(60));
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[actix_web::test]
async fn the_run_command_serves_the_same_marketplace_on_its_second_start() {
    let dir = tempfile::tempdir().unwrap();
    let ports = (free_port(), free_port());

    // The suite's database (SQLite, or PostgreSQL with JM_TEST_DB=postgres).
    let db = crate::helpers::TestDb::new().await;
    let mut first = Run::start(dir.path(), &db.url, 1, ports, &[]);
    first.wait_for(&["swaps, burn and votes are in"]).await;
    let devnet = Devnet::load(&dir.path().join("devnet.json")).unwrap();
    let buyer = devnet.accounts("buyer")[3].signer().unwrap();
    let client = journal_market_client::Client::new(first.api.clone()).unwrap();
    let journals = client.journals(None).await.unwrap().journals;
    let slug = journals
        .iter()
        .find(|j| j.author.swarm)
        .unwrap()
        .slug
        .clone();
    let bought = client.buy(&slug, &buyer).await.unwrap();
    let cookie = client.session().expect("the purchase signed the buyer in");
    first.stop().await;

    // The second start: the same chain and database, nothing deployed or seeded again.
    let mut second = Run::start(dir.path(), &db.url, 2, ports, &[]);
    second.wait_for(&["devnet ready", "\"resumed\":true"]).await;
    wait_ready(&second.api).await;
    let again = journal_market_client::Client::new(second.api.clone()).unwrap();
    assert_eq!(
        again.journals(None).await.unwrap().journals.len(),
        journals.len(),
        "the same journals"
    );
    again.set_session(Some(cookie.clone()));
    let history = again.history().await.unwrap();
    assert!(
        history.unlocks.iter().any(|u| u.slug == slug),
        "the first run's purchase and session: {history:?}"
    );
    let read = again.journal(&slug).await.unwrap();
    assert!(read.unlocked);
    assert_eq!(read.body.as_deref(), Some(bought.body.as_str()));
    assert!(!second.log().contains("published a demo journal"));
    // Killed outright: anvil is told (the parent-death signal), saves and frees its port.
    second.child.kill().unwrap();
    second.child.wait().unwrap();
    let mut after_kill = Run::start(dir.path(), &db.url, 5, ports, &[]);
    after_kill
        .wait_for(&["devnet ready", "\"resumed\":true"])
        .await;
    wait_ready(&after_kill.api).await;
    let c = journal_market_client::Client::new(after_kill.api.clone()).unwrap();
    c.set_session(Some(cookie.clone()));
    assert!(c.journal(&slug).await.unwrap().unlocked);
    after_kill.stop().await;

    // A database that is not the saved chain's (a new, empty one): said in one line, both
    // start fresh.
    let other = crate::helpers::TestDb::new().await;
    let mut third = Run::start(dir.path(), &other.url, 3, ports, &[]);
    third.wait_for(&["disagree", "starting both fresh"]).await;
    third.wait_for(&["swaps, burn and votes are in"]).await;
    third.stop().await;

    // --fresh starts over on purpose: the old session opens nothing.
    let mut fourth = Run::start(dir.path(), &other.url, 4, ports, &["--fresh"]);
    fourth.wait_for(&["swaps, burn and votes are in"]).await;
    let after = journal_market_client::Client::new(fourth.api.clone()).unwrap();
    after.set_session(Some(cookie));
    assert!(after.me().await.unwrap().address.is_none(), "signed out");
    fourth.stop().await;
}
