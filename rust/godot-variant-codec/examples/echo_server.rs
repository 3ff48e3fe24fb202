//! A tokio server for Godot clients: each value a client sends with
//! `StreamPeerTCP.put_var` is decoded and sent back, for its `get_var`.
//!
//! `cargo run --example echo_server --features tokio -- 127.0.0.1:4242`, then in Godot:
//!
//! ```gdscript
//! var peer := StreamPeerTCP.new()
//! peer.connect_to_host("127.0.0.1", 4242)
//! # once peer.get_status() == StreamPeerTCP.STATUS_CONNECTED:
//! peer.put_var({"hello": [1, 2.5, "three"]})
//! var reply = peer.get_var()  # the same Dictionary
//! ```

use futures_util::{SinkExt, StreamExt};
use godot_variant_codec::codec::VariantCodec;
use godot_variant_codec::io::StreamError;
use tokio::net::{TcpListener, TcpStream};
use tokio_util::codec::Framed;

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::io::Result<()> {
    let address = std::env::args().nth(1);
    let listener = TcpListener::bind(address.as_deref().unwrap_or("127.0.0.1:4242")).await?;
    println!("listening on {}", listener.local_addr()?);
    serve(listener).await
}

/// Accepts clients, each served by a task of its own.
async fn serve(listener: TcpListener) -> std::io::Result<()> {
    loop {
        let (client, address) = listener.accept().await?;
        tokio::spawn(async move {
            if let Err(e) = echo(client).await {
                eprintln!("{address}: {e}");
            }
        });
    }
}

/// Sends each value the client sends back to it, until it disconnects or sends bytes
/// that are not a value (the error says which frame and why).
async fn echo(client: TcpStream) -> Result<(), StreamError> {
    client.set_nodelay(true)?;
    let mut frames = Framed::new(client, VariantCodec::new());
    while let Some(value) = frames.next().await {
        frames.send(value?).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use godot_variant_codec::stream::encode_frame;
    use godot_variant_codec::{EncodeOptions, Value};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A client sends what `put_var` writes, and reads the same bytes back; a frame that
    /// is not a value ends its connection.
    #[tokio::test]
    async fn echoes_put_var_frames() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(super::serve(listener));
        let mut client = tokio::net::TcpStream::connect(address).await.unwrap();
        let hello = Value::from([("hello", Value::from_iter([Value::from(1), 2.5.into()]))]);
        let mut sent = Vec::new();
        for value in [hello, Value::from("three"), Value::Nil] {
            encode_frame(&value, &mut sent, &EncodeOptions::default()).unwrap();
        }
        client.write_all(&sent).await.unwrap();
        let mut echoed = vec![0; sent.len()];
        client.read_exact(&mut echoed).await.unwrap();
        assert_eq!(echoed, sent);
        // A frame of 4 bytes holding type id 255, which no value has.
        client.write_all(&[4, 0, 0, 0, 255, 0, 0, 0]).await.unwrap();
        assert_eq!(client.read(&mut echoed).await.unwrap(), 0);
    }
}
