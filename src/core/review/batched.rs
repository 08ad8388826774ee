//! Items made in parallel a batch at a time and handed on in their order:
//! how `scan` loads its configs and `list` checks its entries without
//! holding one result per item.

use rayon::prelude::*;

/// Items made together before any is handed on: all a caller that takes
/// the results in order and drops each holds at once (besides the batch
/// being made meanwhile).
const BATCH: usize = 256;

/// `make` of each of `items`, in their order, made on every thread a batch
/// at a time and handed to `each` with its item: a caller that writes each
/// result out and drops it holds a few batches, however many items there
/// are. The next batch is made while `each` takes the last one. Stops at
/// the first error `each` returns (nothing more is made).
pub fn for_each_made<T: Sync, R: Send, E>(
    items: &[T],
    make: impl Fn(&T) -> R + Sync,
    mut each: impl FnMut(&T, R) -> Result<(), E>,
) -> Result<(), E> {
    let batch = |items: &[T]| -> Vec<R> { items.par_iter().map(&make).collect() };
    let mut take = |items: &[T], made: Vec<R>| {
        items
            .iter()
            .zip(made)
            .try_for_each(|(item, made)| each(item, made))
    };
    if items.len() <= BATCH {
        return take(items, batch(items));
    }
    std::thread::scope(|threads| {
        // One batch waits while the caller takes another: bounded memory.
        let (send, batches) = std::sync::mpsc::sync_channel(1);
        let chunks = items.chunks(BATCH);
        threads.spawn(move || {
            for chunk in chunks {
                // The caller stopped (an error): nothing more to make.
                if send.send((chunk, batch(chunk))).is_err() {
                    return;
                }
            }
        });
        for (chunk, made) in batches {
            take(chunk, made)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// In order, each with its item, across batches; an error stops it.
    #[test]
    fn hands_on_in_order_and_stops_at_an_error() {
        let items: Vec<usize> = (0..BATCH * 3 + 7).collect();
        let mut seen = Vec::new();
        let done: Result<(), ()> = for_each_made(
            &items,
            |i| i * 2,
            |&i, twice| {
                assert_eq!(twice, i * 2);
                seen.push(i);
                Ok(())
            },
        );
        assert_eq!((done, seen), (Ok(()), items.clone()));
        let mut taken = 0;
        let stopped = for_each_made(
            &items,
            |i| *i,
            |&i, _| {
                taken += 1;
                if i == BATCH + 3 { Err(i) } else { Ok(()) }
            },
        );
        assert_eq!((stopped, taken), (Err(BATCH + 3), BATCH + 4));
    }
}
