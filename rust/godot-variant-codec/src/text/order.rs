//! The order in which the engine's text writer lists a Dictionary's keys.

use crate::value::Value;

/// The engine's `StringLikeVariantOrder`: Strings and StringNames by their text, anything
/// else by `Variant::operator<`.
pub(super) fn string_like_less(a: &Value, b: &Value) -> bool {
    match (string_like(a), string_like(b)) {
        (Some(a), Some(b)) => a < b,
        _ => variant_less(a, b),
    }
}

fn string_like(v: &Value) -> Option<&str> {
    match v {
        Value::String(s) | Value::StringName(s) => Some(s),
        _ => None,
    }
}

/// `Variant::operator<`: by type id first, then the type's own `<` where it has one
/// (false where it has none).
fn variant_less(a: &Value, b: &Value) -> bool {
    let (ta, tb) = (a.variant_type(), b.variant_type());
    if ta != tb {
        return ta < tb;
    }
    use Value as V;
    match (a, b) {
        (V::Bool(x), V::Bool(y)) => x < y,
        (V::Int(x), V::Int(y)) => x < y,
        (V::Float(x), V::Float(y)) => x < y,
        (V::String(x), V::String(y)) | (V::StringName(x), V::StringName(y)) => x < y,
        (V::Vector2(x), V::Vector2(y)) => lexicographic_less(&x.to_f32(), &y.to_f32()),
        (V::Vector3(x), V::Vector3(y)) => lexicographic_less(&x.to_f32(), &y.to_f32()),
        (V::Vector4(x), V::Vector4(y)) => lexicographic_less(&x.to_f32(), &y.to_f32()),
        (V::Vector2i(x), V::Vector2i(y)) => lexicographic_less(x, y),
        (V::Vector3i(x), V::Vector3i(y)) => lexicographic_less(x, y),
        (V::Vector4i(x), V::Vector4i(y)) => lexicographic_less(x, y),
        (V::Rid(x), V::Rid(y)) => x < y,
        (V::Array(x), V::Array(y)) => {
            for (p, q) in x.items.iter().zip(&y.items) {
                if variant_less(p, q) {
                    return true;
                }
                if variant_less(q, p) {
                    return false;
                }
            }
            x.items.len() < y.items.len()
        }
        _ => false,
    }
}

/// The math vectors' `<`: the first component that differs decides.
fn lexicographic_less<T: PartialOrd>(a: &[T], b: &[T]) -> bool {
    for (x, y) in a.iter().zip(b) {
        if x != y {
            return x < y;
        }
    }
    false
}

/// The engine's `SortArray::sort` (introsort, then a final insertion sort), step for step:
/// with a comparison that is not a strict order (values without `<`), the order it leaves
/// is the engine's only if the algorithm is the same.
pub(super) fn sort<T: Copy>(items: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let len = items.len();
    if len == 0 {
        return;
    }
    let sorter = Sorter { less: &less };
    let max_depth = 2 * (usize::BITS - 1 - len.leading_zeros()) as usize;
    sorter.introsort(items, 0, len, max_depth);
    sorter.final_insertion_sort(items, 0, len);
}

const INTROSORT_THRESHOLD: usize = 16;

struct Sorter<'a, F> {
    less: &'a F,
}

impl<F> Sorter<'_, F> {
    fn lt<T>(&self, a: &T, b: &T) -> bool
    where
        F: Fn(&T, &T) -> bool,
    {
        (self.less)(a, b)
    }

    fn median_of_3<T: Copy>(&self, a: T, b: T, c: T) -> T
    where
        F: Fn(&T, &T) -> bool,
    {
        if self.lt(&a, &b) {
            if self.lt(&b, &c) {
                b
            } else if self.lt(&a, &c) {
                c
            } else {
                a
            }
        } else if self.lt(&a, &c) {
            a
        } else if self.lt(&b, &c) {
            c
        } else {
            b
        }
    }

    fn introsort<T: Copy>(&self, v: &mut [T], first: usize, mut last: usize, mut depth: usize)
    where
        F: Fn(&T, &T) -> bool,
    {
        while last - first > INTROSORT_THRESHOLD {
            if depth == 0 {
                self.partial_sort(v, first, last, last);
                return;
            }
            depth -= 1;
            let pivot = self.median_of_3(v[first], v[first + (last - first) / 2], v[last - 1]);
            let cut = self.partitioner(v, first, last, pivot);
            self.introsort(v, cut, last, depth);
            last = cut;
        }
    }

    fn partitioner<T: Copy>(
        &self,
        v: &mut [T],
        mut first: usize,
        mut last: usize,
        pivot: T,
    ) -> usize
    where
        F: Fn(&T, &T) -> bool,
    {
        let (lo, hi) = (first, last);
        loop {
            // The engine stops a run that would leave the range (a bad comparison).
            while first + 1 < hi && self.lt(&v[first], &pivot) {
                first += 1;
            }
            last -= 1;
            while last > lo && self.lt(&pivot, &v[last]) {
                last -= 1;
            }
            if first >= last {
                return first;
            }
            v.swap(first, last);
            first += 1;
        }
    }

    fn partial_sort<T: Copy>(&self, v: &mut [T], first: usize, last: usize, middle: usize)
    where
        F: Fn(&T, &T) -> bool,
    {
        self.make_heap(v, first, middle);
        for i in middle..last {
            if self.lt(&v[i], &v[first]) {
                let value = v[i];
                self.pop_heap_to(v, first, middle, i, value);
            }
        }
        self.sort_heap(v, first, middle);
    }

    fn make_heap<T: Copy>(&self, v: &mut [T], first: usize, last: usize)
    where
        F: Fn(&T, &T) -> bool,
    {
        if last - first < 2 {
            return;
        }
        let len = last - first;
        let mut parent = (len - 2) / 2;
        loop {
            let value = v[first + parent];
            self.adjust_heap(v, first, parent, len, value);
            if parent == 0 {
                return;
            }
            parent -= 1;
        }
    }

    fn sort_heap<T: Copy>(&self, v: &mut [T], first: usize, mut last: usize)
    where
        F: Fn(&T, &T) -> bool,
    {
        while last - first > 1 {
            let value = v[last - 1];
            self.pop_heap_to(v, first, last - 1, last - 1, value);
            last -= 1;
        }
    }

    fn pop_heap_to<T: Copy>(&self, v: &mut [T], first: usize, last: usize, result: usize, value: T)
    where
        F: Fn(&T, &T) -> bool,
    {
        v[result] = v[first];
        self.adjust_heap(v, first, 0, last - first, value);
    }

    fn adjust_heap<T: Copy>(&self, v: &mut [T], first: usize, mut hole: usize, len: usize, value: T)
    where
        F: Fn(&T, &T) -> bool,
    {
        let top = hole;
        let mut second = 2 * hole + 2;
        while second < len {
            if self.lt(&v[first + second], &v[first + second - 1]) {
                second -= 1;
            }
            v[first + hole] = v[first + second];
            hole = second;
            second = 2 * (second + 1);
        }
        if second == len {
            v[first + hole] = v[first + second - 1];
            hole = second - 1;
        }
        // push_heap
        let mut parent = hole.wrapping_sub(1) / 2;
        while hole > top && self.lt(&v[first + parent], &value) {
            v[first + hole] = v[first + parent];
            hole = parent;
            parent = hole.wrapping_sub(1) / 2;
        }
        v[first + hole] = value;
    }

    fn final_insertion_sort<T: Copy>(&self, v: &mut [T], first: usize, last: usize)
    where
        F: Fn(&T, &T) -> bool,
    {
        if last - first > INTROSORT_THRESHOLD {
            self.insertion_sort(v, first, first + INTROSORT_THRESHOLD);
            for i in first + INTROSORT_THRESHOLD..last {
                let value = v[i];
                self.unguarded_linear_insert(v, i, value);
            }
        } else {
            self.insertion_sort(v, first, last);
        }
    }

    fn insertion_sort<T: Copy>(&self, v: &mut [T], first: usize, last: usize)
    where
        F: Fn(&T, &T) -> bool,
    {
        for i in first + 1..last {
            let value = v[i];
            if self.lt(&value, &v[first]) {
                v.copy_within(first..i, first + 1);
                v[first] = value;
            } else {
                self.unguarded_linear_insert(v, i, value);
            }
        }
    }

    fn unguarded_linear_insert<T: Copy>(&self, v: &mut [T], mut last: usize, value: T)
    where
        F: Fn(&T, &T) -> bool,
    {
        let mut next = last - 1;
        while self.lt(&value, &v[next]) {
            if next == 0 {
                // The engine's check of a bad comparison: it stops short of the front.
                break;
            }
            v[last] = v[next];
            last = next;
            next -= 1;
        }
        v[last] = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sort_is_a_sort_for_a_strict_order() {
        for len in [0, 1, 2, 15, 16, 17, 100, 1000] {
            let mut v: Vec<i64> = (0..len).map(|i| (i * 7919) % 1009 - 500).collect();
            let mut expected = v.clone();
            expected.sort();
            sort(&mut v, |a, b| a < b);
            assert_eq!(v, expected, "{len}");
        }
    }
}
