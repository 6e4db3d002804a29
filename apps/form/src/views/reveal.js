// Shows and hides a masked field (the SSN) on request. The form works without it: the field
// is a password input, masked as it is typed, and the button stays hidden.
document.querySelectorAll('button[data-reveal]').forEach(function (button) {
  var input = document.getElementById(button.getAttribute('data-reveal'));
  if (!input) return;
  button.hidden = false;
  button.addEventListener('click', function () {
    var shown = input.type === 'text';
    input.type = shown ? 'password' : 'text';
    button.textContent = shown ? 'Show' : 'Hide';
    button.setAttribute('aria-pressed', String(!shown));
  });
});
