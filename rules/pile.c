#include <string.h>

#include "pile.h"

int pile_push(uint16_t *a, int *n, int cap, uint16_t card)
{
	if (*n < 0 || *n >= cap)
		return -1;
	a[(*n)++] = card;
	return 0;
}

int pile_pop(uint16_t *a, int *n, uint16_t *card)
{
	if (*n <= 0)
		return -1;
	*card = a[--(*n)];
	return 0;
}

int pile_remove_at(uint16_t *a, int *n, int i)
{
	if (i < 0 || i >= *n)
		return -1;
	memmove(a + i, a + i + 1, (size_t)(*n - i - 1) * sizeof *a);
	(*n)--;
	return 0;
}

int pile_find(const uint16_t *a, int n, uint16_t card)
{
	for (int i = 0; i < n; i++)
		if (a[i] == card)
			return i;
	return -1;
}

int pile_put_under(uint16_t *a, int *n, int cap, const uint16_t *cards, int m)
{
	if (m < 0 || *n < 0 || *n + m > cap)
		return -1;
	memmove(a + m, a, (size_t)*n * sizeof *a);
	memcpy(a, cards, (size_t)m * sizeof *a);
	*n += m;
	return 0;
}

void pile_reverse(uint16_t *a, int n)
{
	for (int i = 0, j = n - 1; i < j; i++, j--) {
		uint16_t t = a[i];
		a[i] = a[j];
		a[j] = t;
	}
}

void pile_sort(uint16_t *a, int n)
{
	for (int i = 1; i < n; i++) {
		uint16_t x = a[i];
		int j = i;
		while (j > 0 && a[j - 1] > x) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = x;
	}
}
